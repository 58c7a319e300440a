package io.engram.embedding;

import io.engram.memory.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    private record Key(Scope owner, String text) {}

    private record Entry(float[] vector, long computedAt) {}

    private final Embedder delegate;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    // In insertion order: the head is the oldest entry, the first to expire.
    private final Map<Key, Entry> cache;
    private long hits;
    private long misses;

    /** A cache whose entries never expire. */
    public CachingEmbedder(Embedder delegate, int maxEntries) {
        this(delegate, maxEntries, Duration.ofNanos(Long.MAX_VALUE), System::nanoTime);
    }

    public CachingEmbedder(
            Embedder delegate, int maxEntries, Duration maxAge, LongSupplier nanoClock) {
        this.delegate = delegate;
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoClock = nanoClock;
        this.cache =
                new LinkedHashMap<>(Math.min(maxEntries, 1024), 0.75f, false) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                        return size() > maxEntries;
                    }
                };
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        return embed(NOBODY, texts);
    }

    @Override
    public List<float[]> embed(Scope owner, List<String> texts) {
        float[][] out = new float[texts.size()][];
        List<String> missing = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        synchronized (cache) {
            expire(nanoClock.getAsLong());
            for (int i = 0; i < texts.size(); i++) {
                Entry cached = cache.get(new Key(owner, texts.get(i)));
                if (cached != null) {
                    out[i] = cached.vector();
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
            long now = nanoClock.getAsLong();
            synchronized (cache) {
                for (int j = 0; j < computed.size(); j++) {
                    out[missingAt.get(j)] = computed.get(j);
                    Key key = new Key(owner, missing.get(j));
                    // Removed first so that it goes to the end: the order stays the age order.
                    cache.remove(key);
                    cache.put(key, new Entry(computed.get(j), now));
                }
            }
        }
        return List.of(out);
    }

    /** Drops the texts of the owners that match; returns how many entries went. */
    @Override
    public int forget(Predicate<Scope> owners) {
        synchronized (cache) {
            int before = cache.size();
            cache.keySet().removeIf(k -> k.owner() != null && owners.test(k.owner()));
            return before - cache.size();
        }
    }

    /** Drops the entries older than the maximum age, also when no call comes to do it. */
    public void expire() {
        synchronized (cache) {
            expire(nanoClock.getAsLong());
        }
    }

    private void expire(long now) {
        Iterator<Entry> oldestFirst = cache.values().iterator();
        while (oldestFirst.hasNext() && now - oldestFirst.next().computedAt() > maxAgeNanos) {
            oldestFirst.remove();
        }
    }

    /** How many texts of {@code owner} are kept. */
    public int held(Scope owner) {
        synchronized (cache) {
            return (int)
                    cache.keySet().stream().filter(k -> Objects.equals(k.owner(), owner)).count();
        }
    }

    /** Hits and misses so far. */
    public long[] stats() {
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
