package io.engram.serving.store;

import io.engram.config.EngramConfig;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.redis.client.RedisOptions;

/**
 * The serving tier's Redis client settings: TLS for rediss://, with the server's name checked, and
 * AUTH with the configured password.
 */
public final class RedisConnect {

    private RedisConnect() {}

    public static RedisOptions options(EngramConfig.Redis config) {
        RedisOptions options = new RedisOptions().setConnectionString(config.url());
        if (!config.password().isEmpty()) {
            options.setPassword(config.password());
            if (!config.username().isEmpty()) {
                options.setUser(config.username());
            }
        }
        if (config.tls()) {
            options.getNetClientOptions().setSsl(true).setHostnameVerificationAlgorithm("HTTPS");
            if (!config.tlsTruststore().isEmpty()) {
                options.getNetClientOptions()
                        .setTrustOptions(new PemTrustOptions().addCertPath(config.tlsTruststore()));
            }
        }
        return options;
    }
}
