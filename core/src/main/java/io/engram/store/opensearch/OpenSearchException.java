package io.engram.store.opensearch;

/** OpenSearch refused a request or could not be reached. */
public final class OpenSearchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OpenSearchException(String message) {
        super(message);
    }

    public OpenSearchException(String message, Throwable cause) {
        super(message, cause);
    }
}
