package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import io.engram.tls.PemTrust;
import java.net.URI;
import redis.clients.jedis.JedisPooled;

/** The jobs' Redis client: none without a URL, TLS for rediss:// with the server's name checked. */
public final class RedisConnections {

    private RedisConnections() {}

    /**
     * A pooled client of {@code url}, or null when it is empty; for rediss:// the certificate must
     * chain to the CAs of {@code truststore} (PEM; empty: the JVM's) and name the host.
     */
    public static JedisPooled open(String url, String truststore) {
        if (url == null || url.isEmpty()) {
            return null;
        }
        URI uri = URI.create(url);
        if (!new EngramConfig.Redis(url, truststore).tls()) {
            return new JedisPooled(uri);
        }
        return new JedisPooled(
                uri,
                PemTrust.context(truststore).getSocketFactory(),
                PemTrust.checkingHostName(),
                null);
    }
}
