package io.engram.cache;

import io.engram.memory.Scope;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A bounded, thread-safe in-process cache of users' data. Every entry has an owner (or none, for
 * data that belongs to nobody in particular), so forgetting a user drops what is kept of it ({@link
 * #forget}); every entry also lives at most {@code maxAge} after it was stored, which bounds how
 * long data changed or forgotten through another process stays in this one. Each entry weighs what
 * its weigher says (1 unless given); when the weights sum to more than the cache holds, the oldest
 * entries go first.
 */
public final class OwnedCache<K, V> {

    private record Entry<V>(Scope owner, V value, long storedAt, int weight) {}

    private final long maxWeight;
    private final ToIntFunction<V> weigher;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    // In insertion order: the head is the oldest entry, the first to expire.
    private final Map<K, Entry<V>> entries = new LinkedHashMap<>();
    private long weight;

    /** At most {@code maxEntries} entries. */
    public OwnedCache(int maxEntries, Duration maxAge, LongSupplier nanoClock) {
        this(maxEntries, v -> 1, maxAge, nanoClock);
    }

    /** Entries weighing at most {@code maxWeight} together. */
    public OwnedCache(
            long maxWeight, ToIntFunction<V> weigher, Duration maxAge, LongSupplier nanoClock) {
        if (maxWeight < 1) {
            throw new IllegalArgumentException("a cache holds at least one entry: " + maxWeight);
        }
        this.maxWeight = maxWeight;
        this.weigher = weigher;
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoClock = nanoClock;
    }

    /** The value kept for the key, or null when there is none or it is older than the max age. */
    public V get(K key) {
        synchronized (entries) {
            expire(nanoClock.getAsLong());
            Entry<V> e = entries.get(key);
            return e == null ? null : e.value();
        }
    }

    /**
     * Keeps the value as the newest entry, replacing any other for the key; a value weighing more
     * than the whole cache is not kept.
     */
    public void put(K key, Scope ownerOrNull, V value) {
        long now = nanoClock.getAsLong();
        int w = weigher.applyAsInt(value);
        synchronized (entries) {
            // Removed first so that it goes to the end: the order stays the age order.
            Entry<V> old = entries.remove(key);
            if (old != null) {
                weight -= old.weight();
            }
            if (w > maxWeight) {
                return;
            }
            entries.put(key, new Entry<>(ownerOrNull, value, now, w));
            weight += w;
            Iterator<Entry<V>> oldestFirst = entries.values().iterator();
            while (weight > maxWeight) {
                weight -= oldestFirst.next().weight();
                oldestFirst.remove();
            }
        }
    }

    /** Drops the entries of the owners that match; returns how many went. */
    public int forget(Predicate<Scope> owners) {
        synchronized (entries) {
            int before = entries.size();
            Iterator<Entry<V>> all = entries.values().iterator();
            while (all.hasNext()) {
                Entry<V> e = all.next();
                if (e.owner() != null && owners.test(e.owner())) {
                    weight -= e.weight();
                    all.remove();
                }
            }
            return before - entries.size();
        }
    }

    /** Drops the entries older than the maximum age, also when no call comes to do it. */
    public void expire() {
        synchronized (entries) {
            expire(nanoClock.getAsLong());
        }
    }

    private void expire(long now) {
        Iterator<Entry<V>> oldestFirst = entries.values().iterator();
        while (oldestFirst.hasNext()) {
            Entry<V> e = oldestFirst.next();
            if (now - e.storedAt() <= maxAgeNanos) {
                return;
            }
            weight -= e.weight();
            oldestFirst.remove();
        }
    }

    /** How many entries {@code owner} has here. */
    public int held(Scope owner) {
        synchronized (entries) {
            return (int)
                    entries.values().stream().filter(e -> Objects.equals(e.owner(), owner)).count();
        }
    }

    /** What the entries weigh together. */
    public long weight() {
        synchronized (entries) {
            return weight;
        }
    }
}
