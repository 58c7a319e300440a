package io.engram.serving.recall;

import io.engram.cache.OwnedCache;
import io.engram.memory.Scope;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Users' active memories, kept in process so that recall hydrates its candidates without asking
 * PostgreSQL. A user's memories are kept whole, as read at one cache generation (Redis), and used
 * only at that generation: every write to the user's memories (the API, the extraction job, the
 * maintenance tasks) bumps it, so after a change the user's memories are read again. A candidate
 * the kept memories do not have was not active at that generation and is left out, as PostgreSQL
 * would leave it out. What no write bumps, the recall bookkeeping (usage count), may be up to
 * {@code maxAge} old in a ranking. A user with more than {@code maxPerUser} active memories is not
 * kept (recall reads its candidates, as without this cache). Forgetting a user drops its memories
 * here ({@link #forget}).
 */
public final class RowCache {

    /** At most this many users' memories are read at once. */
    static final int MAX_LOADS = 4;

    /** A user's active memories by id as read at {@code generation}; null: too many to keep. */
    private record UserRows(String generation, Map<String, MemoryRow> active) {
        int weight() {
            return active == null ? 1 : Math.max(1, active.size());
        }
    }

    private final OwnedCache<Scope, UserRows> users;
    private final int maxPerUser;
    private final Set<Scope> loading = ConcurrentHashMap.newKeySet();
    private final AtomicLong forgets = new AtomicLong();
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    /** At most {@code maxRows} memories in all, each user's used for {@code maxAge}. */
    public RowCache(long maxRows, int maxPerUser, Duration maxAge, LongSupplier nanoClock) {
        this.users = new OwnedCache<>(maxRows, UserRows::weight, maxAge, nanoClock);
        this.maxPerUser = maxPerUser;
    }

    /** The user's active memories at this generation by id, or null when they are not kept. */
    Map<String, MemoryRow> get(Scope scope, String generation) {
        UserRows kept = users.get(scope);
        if (kept != null && kept.active() != null && kept.generation().equals(generation)) {
            hits.incrementAndGet();
            return kept.active();
        }
        misses.incrementAndGet();
        return null;
    }

    /**
     * Whether to read the user's memories now, and if so the ticket to hand back to {@link
     * #loaded}: not while they are being read, not for a user known to have too many, not while
     * {@link #MAX_LOADS} reads run. Null: do not read.
     */
    Long startLoading(Scope scope) {
        UserRows kept = users.get(scope);
        if (kept != null && kept.active() == null) {
            return null;
        }
        if (loading.size() >= MAX_LOADS || !loading.add(scope)) {
            return null;
        }
        return forgets.get();
    }

    /** How many rows to read for a user: one more than are kept, to tell a user with too many. */
    int readLimit() {
        return maxPerUser + 1;
    }

    /**
     * Keeps the user's active memories, read after {@code generation} was read; null: the read
     * failed. Nothing is kept when a forget came after the read started.
     */
    void loaded(Scope scope, long ticket, String generation, List<MemoryRow> active) {
        try {
            if (active == null || forgets.get() != ticket) {
                return;
            }
            if (active.size() > maxPerUser) {
                users.put(scope, scope, new UserRows(generation, null));
                return;
            }
            Map<String, MemoryRow> byId = new HashMap<>();
            active.forEach(r -> byId.put(r.id(), r));
            users.put(scope, scope, new UserRows(generation, Map.copyOf(byId)));
        } finally {
            loading.remove(scope);
        }
    }

    /** Drops the memories of the users that match; returns how many users' went. */
    public int forget(Predicate<Scope> owners) {
        forgets.incrementAndGet();
        return users.forget(owners);
    }

    /** Drops the memories kept longer than the maximum age. */
    public void expire() {
        users.expire();
    }

    /** How many memories of the user are kept. */
    public int held(Scope owner) {
        UserRows kept = users.get(owner);
        return kept == null || kept.active() == null ? 0 : kept.active().size();
    }

    /** How many memories are kept in all. */
    public long rows() {
        return users.weight();
    }

    /** Recalls hydrated from here and recalls that asked PostgreSQL, so far. */
    public long[] stats() {
        return new long[] {hits.get(), misses.get()};
    }
}
