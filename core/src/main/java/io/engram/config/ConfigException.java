package io.engram.config;

/** Configuration that cannot be used; the message names the key and the problem. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
