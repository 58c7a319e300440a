package io.engram.jobs.store;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import java.time.Duration;

/** The jobs' Redis client ({@link RedisConnection}): none without a URL. */
public final class RedisConnections {

    /**
     * How long a job waits for Redis to connect or answer: a bump it does not take waits for the
     * writer's next one, so a short wait costs nothing and a long one holds the writer.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private RedisConnections() {}

    /** A client of the configured server, or null when there is none. */
    public static RedisConnection open(EngramConfig.Redis config) {
        return RedisConnection.open(config, TIMEOUT);
    }
}
