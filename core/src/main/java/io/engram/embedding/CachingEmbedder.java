package io.engram.embedding;

import io.engram.cache.OwnedCache;
import io.engram.memory.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A bounded cache in front of an embedder (one cache per model, so the model is part of the key).
 * Only the texts not cached go to the model, in one batch.
 *
 * <p>The texts are users' queries and memories, so an entry is kept per owner ({@link #embed(Scope,
 * List)}): forgetting a user drops its texts here too ({@link #forget}). An entry also lives at
 * most {@code maxAge} after it was computed, which bounds how long a text forgotten through another
 * process stays in this one. When full, the oldest entry goes first.
 */
public final class CachingEmbedder implements Embedder {

    /** No owner: texts that belong to nobody in particular (benchmark corpora, tools). */
    private static final Scope NOBODY = null;

    private record Key(Scope owner, String text, boolean query) {}

    private final Embedder delegate;
    private final OwnedCache<Key, float[]> cache;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    /** A cache whose entries never expire. */
    public CachingEmbedder(Embedder delegate, int maxEntries) {
        this(delegate, maxEntries, Duration.ofNanos(Long.MAX_VALUE), System::nanoTime);
    }

    public CachingEmbedder(
            Embedder delegate, int maxEntries, Duration maxAge, LongSupplier nanoClock) {
        this.delegate = delegate;
        this.cache = new OwnedCache<>(maxEntries, maxAge, nanoClock);
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        return embed(NOBODY, texts);
    }

    @Override
    public List<float[]> embed(Scope owner, List<String> texts) {
        return cached(owner, texts, false);
    }

    @Override
    public List<float[]> embedQueries(Scope owner, List<String> texts) {
        return cached(owner, texts, true);
    }

    private List<float[]> cached(Scope owner, List<String> texts, boolean query) {
        float[][] out = new float[texts.size()][];
        List<String> missing = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            float[] cached = cache.get(new Key(owner, texts.get(i), query));
            if (cached != null) {
                out[i] = cached;
            } else {
                missing.add(texts.get(i));
                missingAt.add(i);
            }
        }
        hits.addAndGet(texts.size() - missing.size());
        misses.addAndGet(missing.size());
        if (!missing.isEmpty()) {
            List<float[]> computed =
                    query ? delegate.embedQueries(owner, missing) : delegate.embed(missing);
            for (int j = 0; j < computed.size(); j++) {
                out[missingAt.get(j)] = computed.get(j);
                cache.put(new Key(owner, missing.get(j), query), owner, computed.get(j));
            }
        }
        return List.of(out);
    }

    /** Drops the texts of the owners that match; returns how many entries went. */
    @Override
    public int forget(Predicate<Scope> owners) {
        return cache.forget(owners);
    }

    /** Drops the entries older than the maximum age, also when no call comes to do it. */
    public void expire() {
        cache.expire();
    }

    /** How many texts of {@code owner} are kept. */
    public int held(Scope owner) {
        return cache.held(owner);
    }

    /** Hits and misses so far. */
    public long[] stats() {
        return new long[] {hits.get(), misses.get()};
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
