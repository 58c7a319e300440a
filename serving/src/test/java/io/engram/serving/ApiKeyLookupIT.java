package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.auth.Principal;
import io.engram.serving.store.PostgresOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Key lookups against the real database: one query per key at a time, answers on each context. */
class ApiKeyLookupIT {

    @Test
    void requestsThatFindAKeyExpiredAtOnceShareOneLookupAndEachGoesOnOnItsOwnEventLoop()
            throws Exception {
        try (ServingFixture f =
                new ServingFixture("auth_lookup_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read");
            Vertx vertx = Vertx.vertx();
            Pool pool =
                    PgBuilder.pool()
                            .connectingTo(PostgresOptions.of(f.config.postgres()))
                            .using(vertx)
                            .build();
            try (Connection lock = connect(f);
                    Connection watch = connect(f)) {
                // No reuse of answers, and lookups may wait on the lock as long as the test needs.
                ApiKeyAuthenticator auth = new ApiKeyAuthenticator(pool, 0, 1000, 60_000);
                // Hold every lookup until the lock is released, so the second request arrives
                // while the first one's query is still running, whatever the machine's speed.
                lock.setAutoCommit(false);
                lock.createStatement().execute("lock table api_keys in access exclusive mode");

                List<CompletableFuture<Principal>> answers = new CopyOnWriteArrayList<>();
                List<String> wrongThreads = new CopyOnWriteArrayList<>();
                List<String> loops = new CopyOnWriteArrayList<>();
                AtomicInteger asked = new AtomicInteger();
                List<Context> contexts = List.of(newContext(vertx), newContext(vertx));
                for (Context context : contexts) {
                    CompletableFuture<Principal> answer = new CompletableFuture<>();
                    answers.add(answer);
                    context.runOnContext(
                            v -> {
                                Thread own = Thread.currentThread();
                                loops.add(own.getName());
                                Future<Principal> p = auth.authenticate("Bearer " + key);
                                asked.incrementAndGet();
                                p.onComplete(
                                        ar -> {
                                            if (Thread.currentThread() != own) {
                                                wrongThreads.add(Thread.currentThread().getName());
                                            }
                                            if (ar.succeeded()) {
                                                answer.complete(ar.result());
                                            } else {
                                                answer.completeExceptionally(ar.cause());
                                            }
                                        });
                            });
                }
                Await.until(
                        Duration.ofSeconds(10),
                        () -> asked.get() == 2 && waitingLookups(watch) >= 1);
                assertThat(asked).hasValue(2);
                assertThat(loops).as("the two requests' event loops").doesNotHaveDuplicates();
                // A second query of its own would reach the lock within a second.
                assertThat(Await.until(Duration.ofSeconds(1), () -> waitingLookups(watch) >= 2))
                        .as("a second lookup of the same key")
                        .isFalse();
                assertThat(waitingLookups(watch))
                        .as("key lookups waiting on the lock")
                        .isEqualTo(1);
                assertThat(answers).noneMatch(CompletableFuture::isDone);

                lock.commit();
                for (CompletableFuture<Principal> answer : answers) {
                    assertThat(answer.get(10, TimeUnit.SECONDS).tenantId()).isEqualTo("acme");
                }
                assertThat(wrongThreads)
                        .as("answers delivered off the caller's event loop")
                        .isEmpty();
            } finally {
                pool.close().await(10, TimeUnit.SECONDS);
                vertx.close().await(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A new event-loop context, made from a thread of its own. */
    private static Context newContext(Vertx vertx) throws Exception {
        CompletableFuture<Context> made = new CompletableFuture<>();
        Thread t = new Thread(() -> made.complete(vertx.getOrCreateContext()));
        t.start();
        return made.get(10, TimeUnit.SECONDS);
    }

    private static Connection connect(ServingFixture f) throws Exception {
        return DriverManager.getConnection(
                f.config.postgres().url(),
                f.config.postgres().user(),
                f.config.postgres().password());
    }

    /** Key lookups of this database waiting for a lock (one statement each). */
    private static int waitingLookups(Connection c) {
        try (ResultSet rs =
                c.createStatement()
                        .executeQuery(
                                "select count(*) from pg_stat_activity where datname ="
                                        + " current_database() and query like 'select id, tenant_id%'"
                                        + " and wait_event_type = 'Lock'")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
