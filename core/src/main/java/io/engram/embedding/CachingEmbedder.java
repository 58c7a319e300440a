package io.engram.embedding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bounded least-recently-used cache in front of an embedder, keyed by text (one cache per model,
 * so the model is part of the key). Only the texts not cached go to the model, in one batch.
 */
public final class CachingEmbedder implements Embedder {

    private final Embedder delegate;
    private final Map<String, float[]> cache;
    private long hits;
    private long misses;

    public CachingEmbedder(Embedder delegate, int maxEntries) {
        this.delegate = delegate;
        this.cache =
                new LinkedHashMap<>(Math.min(maxEntries, 1024), 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                        return size() > maxEntries;
                    }
                };
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        float[][] out = new float[texts.size()][];
        List<String> missing = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        synchronized (cache) {
            for (int i = 0; i < texts.size(); i++) {
                float[] cached = cache.get(texts.get(i));
                if (cached != null) {
                    out[i] = cached;
                    hits++;
                } else {
                    missing.add(texts.get(i));
                    missingAt.add(i);
                    misses++;
                }
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> computed = delegate.embed(missing);
            synchronized (cache) {
                for (int j = 0; j < computed.size(); j++) {
                    out[missingAt.get(j)] = computed.get(j);
                    cache.put(missing.get(j), computed.get(j));
                }
            }
        }
        return List.of(out);
    }

    /** Hits and misses so far. */
    public synchronized long[] stats() {
        synchronized (cache) {
            return new long[] {hits, misses};
        }
    }

    @Override
    public boolean batches() {
        return delegate.batches();
    }

    @Override
    public String version() {
        return delegate.version();
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
