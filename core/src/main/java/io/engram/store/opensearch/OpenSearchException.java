package io.engram.store.opensearch;

/** OpenSearch refused a request or could not be reached. */
public final class OpenSearchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean transientFailure;

    public OpenSearchException(String message) {
        this(message, false);
    }

    /**
     * {@code transientFailure}: OpenSearch could not take the request for the moment (unreachable,
     * too many requests, unavailable) and the same request may succeed later.
     */
    public OpenSearchException(String message, boolean transientFailure) {
        super(message);
        this.transientFailure = transientFailure;
    }

    public OpenSearchException(String message, Throwable cause) {
        super(message, cause);
        this.transientFailure = cause instanceof java.io.IOException;
    }

    /** Whether the same request may succeed if sent again later. */
    public boolean isTransient() {
        return transientFailure;
    }

    /** HTTP statuses with which OpenSearch says "not now" rather than "not this request". */
    static boolean transientStatus(int status) {
        return status == 429 || status == 502 || status == 503 || status == 504;
    }
}
