package io.engram.embedding;

/** The embedder could not produce vectors. */
public final class EmbeddingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }
}
