package io.engram.serving.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.config.EngramConfig;
import io.engram.services.PostgresServer;
import io.engram.services.SelfSignedCertificate;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The serving tier's PostgreSQL pool and the JDBC connections of the jobs against a server that
 * speaks TLS, configured by one JDBC URL ({@code sslmode}, {@code sslrootcert}).
 */
class PostgresTlsIT {

    private static SelfSignedCertificate certificate;
    private static SelfSignedCertificate stranger;
    private static PostgresServer server;
    private static Vertx vertx;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("engram-pg-tls");
        certificate = SelfSignedCertificate.create(dir.resolve("tls"), "server");
        stranger = SelfSignedCertificate.create(dir.resolve("tls"), "stranger");
        server = PostgresServer.startWithTls(dir.resolve("pg"), "engram", certificate);
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
        server.close();
    }

    private static EngramConfig.Postgres config(String query) {
        return new EngramConfig.Postgres(
                server.jdbcUrl("engram") + query, server.user(), server.password(), "", 2);
    }

    /** Whether the pool's connection to the server is encrypted, as the server sees it. */
    private static boolean encrypted(String query) throws Exception {
        Pool pool =
                PgBuilder.pool()
                        .with(new PoolOptions().setMaxSize(1))
                        .connectingTo(PostgresOptions.of(config(query)))
                        .using(vertx)
                        .build();
        try {
            Row row =
                    pool.query("select ssl from pg_stat_ssl where pid = pg_backend_pid()")
                            .execute()
                            .await(20, TimeUnit.SECONDS)
                            .iterator()
                            .next();
            return row.getBoolean(0);
        } finally {
            pool.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutSettingsTheServingPoolUsesTlsWhenTheServerOffersIt() throws Exception {
        assertThat(encrypted("")).isTrue();
        assertThat(encrypted("?sslmode=require")).isTrue();
        assertThat(encrypted("?sslmode=disable")).isFalse();
    }

    @Test
    void verifyFullChecksTheCertificateAgainstTheNamedCa() throws Exception {
        assertThat(encrypted("?sslmode=verify-full&sslrootcert=" + certificate.certificate()))
                .isTrue();
        assertThatThrownBy(
                        () ->
                                encrypted(
                                        "?sslmode=verify-full&sslrootcert="
                                                + stranger.certificate()))
                .hasStackTraceContaining("SSL handshake failed");
        assertThatThrownBy(() -> PostgresOptions.of(config("?sslmode=verify-full")))
                .hasMessageContaining("sslmode=verify-full needs sslrootcert=");
        assertThatThrownBy(
                        () ->
                                PostgresOptions.of(
                                        config("?sslmode=verify-ca&sslrootcert=/nonexistent.pem")))
                .hasMessageContaining("sslrootcert /nonexistent.pem is not a readable file");
    }

    @Test
    void theJobsJdbcConnectionsReadTheSameUrl() throws Exception {
        EngramConfig.Postgres c =
                config("?sslmode=verify-full&sslrootcert=" + certificate.certificate());
        try (Connection jdbc = DriverManager.getConnection(c.url(), c.user(), c.password());
                ResultSet rs =
                        jdbc.createStatement()
                                .executeQuery(
                                        "select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean(1)).isTrue();
        }
    }
}
