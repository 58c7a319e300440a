package io.engram.embedding;

import io.engram.memory.Scope;
import java.util.List;
import java.util.function.Predicate;

/**
 * Turns texts into unit-length vectors. Implementations are thread-safe; {@link #version()} names
 * model and variant, and is stored with every vector so vectors of different models never mix.
 */
public interface Embedder extends AutoCloseable {

    /** One vector per text, in order, each of {@link #dimension()} floats with L2 norm 1. */
    List<float[]> embed(List<String> texts);

    default float[] embed(String text) {
        return embed(List.of(text)).get(0);
    }

    /**
     * The vectors of texts that belong to {@code owner} (its memories or its queries). An embedder
     * that keeps texts, a cache, keeps them apart per owner, so that {@link #forget} can drop them.
     */
    default List<float[]> embed(Scope owner, List<String> texts) {
        return embed(texts);
    }

    /**
     * The vectors of queries of {@code owner}: what searches for the texts of {@link #embed}. A
     * symmetric model embeds both alike.
     */
    default List<float[]> embedQueries(Scope owner, List<String> texts) {
        return embed(owner, texts);
    }

    /** Drops whatever is kept of the texts of the owners that match; a model keeps nothing. */
    default int forget(Predicate<Scope> owners) {
        return 0;
    }

    String version();

    /**
     * Whether a call with several texts runs them through the model together. When it does not (one
     * text per model call), splitting a call across threads costs nothing extra.
     */
    default boolean batches() {
        return true;
    }

    int dimension();

    @Override
    default void close() {}

    /** Cosine similarity of two unit vectors (their dot product). */
    static float cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    "vectors of " + a.length + " and " + b.length + " dimensions");
        }
        float dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
