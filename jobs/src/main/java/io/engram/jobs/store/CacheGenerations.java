package io.engram.jobs.store;

import io.engram.cache.CacheKeys;
import io.engram.memory.Scope;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPooled;

/** Bumps the cache generation of scopes whose memories changed, so cached results go stale. */
public final class CacheGenerations {

    private static final Logger LOG = LoggerFactory.getLogger(CacheGenerations.class);

    private CacheGenerations() {}

    /**
     * Best effort: cached results expire within minutes, so a missed bump only delays freshness and
     * must not fail a write.
     */
    public static void bump(JedisPooled redis, Collection<Scope> scopes) {
        bump(redis, scopes, false);
    }

    /**
     * As {@link #bump(JedisPooled, Collection)}, for a writer other than the extraction job: also
     * tells the job to reload the users ({@link CacheKeys#otherWrites}).
     */
    public static void bumpAsOtherWriter(JedisPooled redis, Collection<Scope> scopes) {
        bump(redis, scopes, true);
    }

    private static void bump(JedisPooled redis, Collection<Scope> scopes, boolean other) {
        if (redis == null) {
            return;
        }
        try {
            for (Scope s : scopes) {
                redis.incr(CacheKeys.generation(s));
                if (other) {
                    redis.incr(CacheKeys.otherWrites(s));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("cache generation bump failed: {}", e.toString());
        }
    }
}
