package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import io.engram.tls.PemTrust;
import java.net.URI;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The jobs' Redis client: none without a URL, TLS for rediss:// with the server's name checked, and
 * AUTH with the configured password.
 */
public final class RedisConnections {

    private RedisConnections() {}

    /**
     * A pooled client of the configured server, or null when there is none; for rediss:// the
     * certificate must chain to the CAs of its truststore (PEM; empty: the JVM's) and name the
     * host.
     */
    public static JedisPooled open(EngramConfig.Redis config) {
        if (!config.configured()) {
            return null;
        }
        URI uri = URI.create(config.url());
        DefaultJedisClientConfig.Builder client =
                DefaultJedisClientConfig.builder().database(JedisURIHelper.getDBIndex(uri));
        if (!config.password().isEmpty()) {
            client.password(config.password());
            if (!config.username().isEmpty()) {
                client.user(config.username());
            }
        }
        if (config.tls()) {
            client.ssl(true)
                    .sslSocketFactory(PemTrust.context(config.tlsTruststore()).getSocketFactory())
                    .sslParameters(PemTrust.checkingHostName());
        }
        int port = uri.getPort() < 0 ? Protocol.DEFAULT_PORT : uri.getPort();
        return new JedisPooled(new HostAndPort(uri.getHost(), port), client.build());
    }
}
