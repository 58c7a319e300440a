package io.engram.serving.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.config.EngramConfig;
import io.engram.services.Await;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A database password rotated while the service runs: with {@code postgres.password_file}, the
 * serving pool's and the JDBC connections opened after the rotation log in with the new password.
 */
class PostgresPasswordFileIT {

    private static final String ROLE = "engram_rotating";

    @Test
    void connectionsOpenedAfterARotationUseTheNewPassword() throws Exception {
        PostgresServer pg = SharedServices.postgres();
        Path secret = Files.createTempFile("engram-pg-password", "");
        try (Connection admin = pg.connect("engram")) {
            admin.createStatement().execute("drop role if exists " + ROLE);
            admin.createStatement().execute("create role " + ROLE + " login password 'first'");
        }
        Files.writeString(secret, "first\n");
        EngramConfig.Postgres config =
                new EngramConfig.Postgres(pg.jdbcUrl("engram"), ROLE, "", secret.toString(), 1);
        Vertx vertx = Vertx.vertx();
        Pool pool =
                PgBuilder.pool()
                        .with(new PoolOptions().setMaxSize(1))
                        .connectingTo(PostgresOptions.current(config))
                        .using(vertx)
                        .build();
        try {
            assertThat(currentUser(pool)).isEqualTo(ROLE);
            assertThat(currentUser(config)).isEqualTo(ROLE);

            // The secret is rotated: the role's password changes, the file is rewritten, and the
            // role's open sessions end (as a restart of the database would end them).
            try (Connection admin = pg.connect("engram")) {
                admin.createStatement().execute("alter role " + ROLE + " password 'second'");
                Files.writeString(secret, "second\n");
                endSessions(admin);
            }
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () -> ROLE.equals(currentUserOrNull(pool))))
                    .as("the pool reconnects with the new password")
                    .isTrue();
            assertThat(currentUser(config)).isEqualTo(ROLE);
            EngramConfig.Postgres readOnce =
                    new EngramConfig.Postgres(pg.jdbcUrl("engram"), ROLE, "first", "", 1);
            assertThatThrownBy(readOnce::connect)
                    .as("the old password no longer logs in")
                    .hasMessageContaining("password authentication failed");
        } finally {
            pool.close().await(10, TimeUnit.SECONDS);
            vertx.close().await(10, TimeUnit.SECONDS);
            try (Connection admin = pg.connect("engram")) {
                endSessions(admin);
                admin.createStatement().execute("drop role if exists " + ROLE);
            }
            Files.deleteIfExists(secret);
        }
    }

    private static void endSessions(Connection admin) throws SQLException {
        admin.createStatement()
                .execute(
                        "select pg_terminate_backend(pid) from pg_stat_activity where usename = '"
                                + ROLE
                                + "'");
    }

    private static String currentUser(Pool pool) throws TimeoutException {
        return pool.query("select current_user")
                .execute()
                .await(10, TimeUnit.SECONDS)
                .iterator()
                .next()
                .getString(0);
    }

    private static String currentUserOrNull(Pool pool) {
        try {
            return currentUser(pool);
        } catch (Exception e) { // await rethrows the cause as it is: a reset socket too
            return null;
        }
    }

    private static String currentUser(EngramConfig.Postgres config) throws SQLException {
        try (Connection c = config.connect();
                ResultSet rs = c.createStatement().executeQuery("select current_user")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
