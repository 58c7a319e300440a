package io.engram.jobs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.services.RedisServer;
import io.engram.services.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jobs' Redis client (cache generation bumps) against a server that speaks TLS and wants a
 * password.
 */
class RedisConnectionsIT {

    private static final String PASSWORD = "s3cret-token";

    private static SelfSignedCertificate certificate;
    private static RedisServer server;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("engram-redis-tls");
        certificate = SelfSignedCertificate.create(dir.resolve("tls"), "redis");
        server = RedisServer.startWithTls(dir.resolve("redis"), certificate, PASSWORD);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static EngramConfig.Redis config(String url, String truststore) {
        return new EngramConfig.Redis(url, truststore, "", PASSWORD);
    }

    @Test
    void bumpsOverTlsWithTheGivenCaAndPassword() {
        try (RedisConnection redis =
                RedisConnections.open(
                        config(server.tlsUrl(), certificate.certificate().toString()))) {
            assertThat(redis.sync().incr("engram:gen:default-user")).isEqualTo(1);
        }
    }

    @Test
    void logsInAsAnAclUser() {
        String reversed = new StringBuilder(PASSWORD).reverse().toString();
        try (RedisConnection redis =
                RedisConnections.open(
                        new EngramConfig.Redis(
                                server.tlsUrl(),
                                certificate.certificate().toString(),
                                RedisServer.ACL_USER,
                                reversed))) {
            assertThat(redis.sync().incr("engram:gen:acl-user")).isEqualTo(1);
        }
    }

    @Test
    void isRefusedWithoutTheRightPassword() {
        String ca = certificate.certificate().toString();
        try (RedisConnection redis =
                RedisConnections.open(EngramConfig.Redis.at(server.tlsUrl(), ca))) {
            assertThatThrownBy(() -> redis.sync().incr("engram:gen:test"))
                    .hasStackTraceContaining("NOAUTH");
        }
        try (RedisConnection redis =
                RedisConnections.open(new EngramConfig.Redis(server.tlsUrl(), ca, "", "wrong"))) {
            assertThatThrownBy(() -> redis.sync().incr("engram:gen:test"))
                    .hasStackTraceContaining("WRONGPASS");
        }
    }

    @Test
    void refusesAServerItDoesNotTrust() {
        try (RedisConnection redis = RedisConnections.open(config(server.tlsUrl(), ""))) {
            assertThatThrownBy(() -> redis.sync().incr("engram:gen:test"))
                    .hasStackTraceContaining("PKIX path building failed");
        }
    }

    @Test
    void refusesACertificateForAnotherName() {
        // the certificate names 127.0.0.1, not localhost
        String byName = server.tlsUrl().replace("127.0.0.1", "localhost");
        try (RedisConnection redis =
                RedisConnections.open(config(byName, certificate.certificate().toString()))) {
            assertThatThrownBy(() -> redis.sync().incr("engram:gen:test"))
                    .hasStackTraceContaining("No name matching localhost found");
        }
    }

    @Test
    void noUrlNoClient() {
        assertThat(RedisConnections.open(EngramConfig.Redis.at("", ""))).isNull();
    }
}
