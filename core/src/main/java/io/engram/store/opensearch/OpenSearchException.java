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

    /** A call of the typed client: its outcome, or this exception naming {@code what} failed. */
    @FunctionalInterface
    public interface Call<T> {
        T call() throws java.io.IOException;
    }

    /**
     * Runs {@code call}, turning the client's failures into this exception: transient when
     * OpenSearch could not be reached or said "not now" (429, 502–504).
     */
    public static <T> T call(String what, Call<T> call) {
        try {
            return call.call();
        } catch (java.io.IOException | RuntimeException e) {
            throw of(what, e);
        }
    }

    /** This exception for a failure of the typed client while doing {@code what}. */
    public static OpenSearchException of(String what, Throwable e) {
        if (e instanceof OpenSearchException ours) {
            return ours;
        }
        if (e instanceof java.util.concurrent.CompletionException && e.getCause() != null) {
            return of(what, e.getCause());
        }
        int status = status(e);
        if (status > 0) {
            OpenSearchException out =
                    new OpenSearchException(
                            what + " failed: " + e.getMessage(), transientStatus(status));
            out.initCause(e);
            return out;
        }
        if (e instanceof java.io.IOException) {
            return new OpenSearchException(what + " failed: " + e, e);
        }
        OpenSearchException out = new OpenSearchException(what + " failed: " + e, false);
        out.initCause(e);
        return out;
    }

    /** The HTTP status of an error answer, or 0 when there was none (unreachable, timeout). */
    public static int status(Throwable e) {
        if (e instanceof org.opensearch.client.opensearch._types.OpenSearchException answered) {
            return answered.status();
        }
        if (e instanceof io.engram.store.opensearch.wire.OpenSearchWire.StatusException answered) {
            return answered.status();
        }
        return 0;
    }

    /** HTTP statuses with which OpenSearch says "not now" rather than "not this request". */
    static boolean transientStatus(int status) {
        return status == 429 || status == 502 || status == 503 || status == 504;
    }
}
