package io.engram.jobs.store;

import io.engram.cache.CacheKeys;
import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.memory.Scope;

/** The production {@link OtherWrites}: counters in Redis ({@link CacheKeys#otherWrites}). */
public final class RedisOtherWrites implements OtherWrites {

    private static final long serialVersionUID = 1L;

    private final EngramConfig.Redis redis;

    public RedisOtherWrites(EngramConfig.Redis redis) {
        this.redis = redis;
    }

    /** Without Redis, never known. */
    @Override
    public Counts open() {
        RedisConnection client = RedisConnections.open(redis);
        if (client == null) {
            return scope -> -1;
        }
        return new Counts() {
            @Override
            public long of(Scope scope) {
                try {
                    String n = client.sync().get(CacheKeys.otherWrites(scope));
                    return n == null ? 0 : Long.parseLong(n);
                } catch (RuntimeException e) {
                    return -1;
                }
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
