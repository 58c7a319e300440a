package io.engram.jobs.store;

import io.engram.cache.CacheKeys;
import io.engram.memory.Scope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPooled;

/**
 * Bumps the cache generation of scopes whose memories changed, so cached results go stale. A bump
 * Redis does not take must not fail a write that happened: the scopes left are returned, and a
 * writer keeps them in {@link Pending} to send them again with its next bump.
 */
public final class CacheGenerations {

    private static final Logger LOG = LoggerFactory.getLogger(CacheGenerations.class);

    private CacheGenerations() {}

    /** Bumps the scopes' generations; returns those Redis did not take. */
    public static Set<Scope> bump(JedisPooled redis, Collection<Scope> scopes) {
        return bump(redis, scopes, false);
    }

    /**
     * As {@link #bump(JedisPooled, Collection)}, for a writer other than the extraction job: also
     * tells the job to reload the users ({@link CacheKeys#otherWrites}).
     */
    public static Set<Scope> bumpAsOtherWriter(JedisPooled redis, Collection<Scope> scopes) {
        return bump(redis, scopes, true);
    }

    private static Set<Scope> bump(JedisPooled redis, Collection<Scope> scopes, boolean other) {
        if (redis == null) {
            return Set.of();
        }
        List<Scope> todo = new ArrayList<>(scopes);
        for (int i = 0; i < todo.size(); i++) {
            Scope s = todo.get(i);
            try {
                redis.incr(CacheKeys.generation(s));
                if (other) {
                    redis.incr(CacheKeys.otherWrites(s));
                }
            } catch (RuntimeException e) {
                // The rest waits too: one refusal is enough to tell Redis is not taking them.
                LOG.warn(
                        "cache generation bump failed, {} scope(s) kept for the next: {}",
                        todo.size() - i,
                        e.toString());
                return new LinkedHashSet<>(todo.subList(i, todo.size()));
            }
        }
        return Set.of();
    }

    /**
     * A writer's bumps that Redis has not taken yet, sent again before each later one (and by
     * {@link #retry}). At most {@link #MAX_WAITING} scopes wait; beyond that a bump is dropped
     * (counted), and the scope's cached answers live until their expiry. Not thread-safe: one per
     * writer.
     */
    public static final class Pending {

        static final int MAX_WAITING = 100_000;

        private final JedisPooled redis;
        private final boolean otherWriter;
        private final Set<Scope> waiting = new LinkedHashSet<>();
        private long dropped;

        /** {@code otherWriter}: bumps as {@link #bumpAsOtherWriter}. */
        public Pending(JedisPooled redis, boolean otherWriter) {
            this.redis = redis;
            this.otherWriter = otherWriter;
        }

        /** Bumps the waiting scopes and then {@code scopes}; those Redis does not take wait. */
        public void bump(Collection<Scope> scopes) {
            for (Scope s : scopes) {
                if (waiting.size() < MAX_WAITING || waiting.contains(s)) {
                    waiting.add(s);
                } else {
                    dropped++;
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            Set<Scope> left = CacheGenerations.bump(redis, waiting, otherWriter);
            waiting.retainAll(left);
        }

        /** Sends the waiting bumps again. */
        public void retry() {
            bump(List.of());
        }

        /** How many scopes' bumps wait. */
        public int waiting() {
            return waiting.size();
        }

        /** Bumps dropped because {@link #MAX_WAITING} scopes were waiting. */
        public long dropped() {
            return dropped;
        }
    }
}
