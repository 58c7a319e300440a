package io.engram.jobs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.services.RedisServer;
import io.engram.services.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/** The jobs' Redis client (cache generation bumps) against a server that speaks TLS. */
class RedisConnectionsIT {

    private static SelfSignedCertificate certificate;
    private static RedisServer server;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("engram-redis-tls");
        certificate = SelfSignedCertificate.create(dir.resolve("tls"), "redis");
        server = RedisServer.startWithTls(dir.resolve("redis"), certificate);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void bumpsOverTlsWithTheGivenCa() {
        try (JedisPooled redis =
                RedisConnections.open(server.tlsUrl(), certificate.certificate().toString())) {
            assertThat(redis.incr("engram:gen:test")).isEqualTo(1);
        }
    }

    @Test
    void refusesAServerItDoesNotTrust() {
        try (JedisPooled redis = RedisConnections.open(server.tlsUrl(), "")) {
            assertThatThrownBy(() -> redis.incr("engram:gen:test"))
                    .hasStackTraceContaining("PKIX path building failed");
        }
    }

    @Test
    void refusesACertificateForAnotherName() {
        // the certificate names 127.0.0.1, not localhost
        String byName = server.tlsUrl().replace("127.0.0.1", "localhost");
        try (JedisPooled redis =
                RedisConnections.open(byName, certificate.certificate().toString())) {
            assertThatThrownBy(() -> redis.incr("engram:gen:test"))
                    .hasStackTraceContaining("No name matching localhost found");
        }
    }

    @Test
    void noUrlNoClient() {
        assertThat(RedisConnections.open("", "")).isNull();
    }
}
