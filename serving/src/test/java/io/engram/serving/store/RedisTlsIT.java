package io.engram.serving.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.services.RedisServer;
import io.engram.services.SelfSignedCertificate;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The serving tier's Redis client against a server that speaks TLS (rediss://) and wants a
 * password.
 */
class RedisTlsIT {

    private static final String PASSWORD = "s3cret-token";

    private static SelfSignedCertificate certificate;
    private static RedisServer server;
    private static Vertx vertx;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("engram-redis-tls");
        certificate = SelfSignedCertificate.create(dir.resolve("tls"), "redis");
        server = RedisServer.startWithTls(dir.resolve("redis"), certificate, PASSWORD);
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
        server.close();
    }

    private static String ping(String url, String truststore) throws Exception {
        return ping(new EngramConfig.Redis(url, truststore, "", PASSWORD));
    }

    private static String ping(EngramConfig.Redis config) throws Exception {
        try (RedisConnection redis =
                RedisConnection.open(config, java.time.Duration.ofSeconds(5))) {
            return redis.async(c -> c.ping()).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void talksTlsToAServerWhoseCaItIsGiven() throws Exception {
        assertThat(ping(server.tlsUrl(), certificate.certificate().toString())).isEqualTo("PONG");
    }

    @Test
    void logsInAsAnAclUser() throws Exception {
        String reversed = new StringBuilder(PASSWORD).reverse().toString();
        assertThat(
                        ping(
                                new EngramConfig.Redis(
                                        server.tlsUrl(),
                                        certificate.certificate().toString(),
                                        RedisServer.ACL_USER,
                                        reversed)))
                .isEqualTo("PONG");
    }

    @Test
    void isRefusedWithoutTheRightPassword() {
        String ca = certificate.certificate().toString();
        assertThatThrownBy(() -> ping(EngramConfig.Redis.at(server.tlsUrl(), ca)))
                .hasStackTraceContaining("NOAUTH");
        assertThatThrownBy(() -> ping(new EngramConfig.Redis(server.tlsUrl(), ca, "", "wrong")))
                .hasStackTraceContaining("WRONGPASS");
    }

    @Test
    void refusesAServerItDoesNotTrust() {
        // without the CA: the JVM's own CAs do not vouch for a self-signed certificate
        assertThatThrownBy(() -> ping(server.tlsUrl(), ""))
                .hasStackTraceContaining("PKIX path building failed");
    }

    @Test
    void refusesACertificateForAnotherName() {
        // the certificate names 127.0.0.1, not localhost
        String byName = server.tlsUrl().replace("127.0.0.1", "localhost");
        assertThatThrownBy(() -> ping(byName, certificate.certificate().toString()))
                .hasStackTraceContaining("No name matching localhost found");
    }
}
