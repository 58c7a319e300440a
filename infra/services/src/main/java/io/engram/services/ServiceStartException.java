package io.engram.services;

/** A service could not be started; the message says which and why, with its log tail. */
public final class ServiceStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ServiceStartException(String message) {
        super(message);
    }

    public ServiceStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
