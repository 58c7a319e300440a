package io.engram.llm;

/** Why a call to the model gave no usable answer. */
public enum FailureKind {
    /** No answer within the deadline (after retries). */
    TIMEOUT,
    /** The endpoint answered with an error status. */
    HTTP_ERROR,
    /** The endpoint could not be reached. */
    TRANSPORT,
    /** An answer came, but not in the shape that was asked for. */
    MALFORMED_OUTPUT
}
