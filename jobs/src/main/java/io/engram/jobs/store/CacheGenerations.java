package io.engram.jobs.store;

import io.engram.cache.CacheKeys;
import io.engram.cache.RedisConnection;
import io.engram.memory.Scope;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bumps the cache generation of scopes whose memories changed, so cached results go stale. A bump
 * Redis does not take must not fail a write that happened: the scopes left are returned, and a
 * writer keeps them in {@link Pending} to send them again with its next bump.
 */
public final class CacheGenerations {

    private static final Logger LOG = LoggerFactory.getLogger(CacheGenerations.class);

    private CacheGenerations() {}

    /** Bumps the scopes' generations; returns those Redis did not take. */
    public static Set<Scope> bump(RedisConnection redis, Collection<Scope> scopes) {
        return bump(redis, scopes, false);
    }

    /**
     * As {@link #bump(RedisConnection, Collection)}, for a writer other than the extraction job:
     * also tells the job to reload the users ({@link CacheKeys#otherWrites}).
     */
    public static Set<Scope> bumpAsOtherWriter(RedisConnection redis, Collection<Scope> scopes) {
        return bump(redis, scopes, true);
    }

    private static Set<Scope> bump(RedisConnection redis, Collection<Scope> scopes, boolean other) {
        if (redis == null) {
            return Set.of();
        }
        List<Scope> todo = new ArrayList<>(scopes);
        // Pipelined: every INCR is sent before the first answer is read.
        List<List<RedisFuture<Long>>> sent = new ArrayList<>(todo.size());
        try {
            RedisAsyncCommands<String, String> commands = redis.pipeline();
            for (Scope s : todo) {
                List<RedisFuture<Long>> one = new ArrayList<>(2);
                one.add(commands.incr(CacheKeys.generation(s)));
                if (other) {
                    one.add(commands.incr(CacheKeys.otherWrites(s)));
                }
                sent.add(one);
            }
        } catch (RuntimeException e) {
            return kept(todo, 0, e);
        }
        long deadline = System.nanoTime() + redis.timeout().toNanos();
        for (int i = 0; i < sent.size(); i++) {
            try {
                for (RedisFuture<Long> f : sent.get(i)) {
                    f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return kept(todo, i, e);
            } catch (Exception e) {
                // The rest waits too: one refusal is enough to tell Redis is not taking them.
                // (A later one Redis did take is sent again: one more bump changes nothing.)
                return kept(todo, i, e);
            }
        }
        return Set.of();
    }

    private static Set<Scope> kept(List<Scope> todo, int from, Exception e) {
        LOG.warn(
                "cache generation bump failed, {} scope(s) kept for the next: {}",
                todo.size() - from,
                e.toString());
        return new LinkedHashSet<>(todo.subList(from, todo.size()));
    }

    /**
     * A writer's bumps that Redis has not taken yet, sent again before each later one (and by
     * {@link #retry}). At most {@link #MAX_WAITING} scopes wait; beyond that a bump is dropped
     * (counted), and the scope's cached answers live until their expiry. Not thread-safe: one per
     * writer.
     */
    public static final class Pending {

        static final int MAX_WAITING = 100_000;

        private final RedisConnection redis;
        private final boolean otherWriter;
        private final Set<Scope> waiting = new LinkedHashSet<>();
        private long dropped;

        /** {@code otherWriter}: bumps as {@link #bumpAsOtherWriter}. */
        public Pending(RedisConnection redis, boolean otherWriter) {
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
