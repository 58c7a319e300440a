package io.engram.serving;

import io.engram.config.EngramConfig;
import io.engram.serving.health.DependencyCheck;
import io.engram.serving.health.Readiness;
import io.engram.store.opensearch.OpenSearchClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The serving tier as one unit: its Vert.x instance, the clients of every dependency and the
 * deployed API. {@link #close()} stops accepting requests, then closes the clients.
 */
public final class ServingApp implements AutoCloseable {

    private final Vertx vertx;
    private final Pool postgres;
    private final Redis redis;
    private final Admin kafkaAdmin;
    private final ApiVerticle api;

    private ServingApp(Vertx vertx, Pool postgres, Redis redis, Admin kafkaAdmin, ApiVerticle api) {
        this.vertx = vertx;
        this.postgres = postgres;
        this.redis = redis;
        this.kafkaAdmin = kafkaAdmin;
        this.api = api;
    }

    public static ServingApp start(EngramConfig config) {
        Vertx vertx = Vertx.vertx();
        Pool postgres =
                PgBuilder.pool()
                        .with(new PoolOptions().setMaxSize(config.postgres().poolSize()))
                        .connectingTo(pgOptions(config.postgres()))
                        .using(vertx)
                        .build();
        Redis redis =
                Redis.createClient(
                        vertx, new RedisOptions().setConnectionString(config.redis().url()));
        Admin kafkaAdmin =
                Admin.create(
                        Map.of(
                                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                                        config.kafka().bootstrapServers(),
                                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000));
        OpenSearchClient openSearch =
                new OpenSearchClient(config.openSearch().url(), Duration.ofSeconds(3));

        List<DependencyCheck> checks =
                List.of(
                        new DependencyCheck("postgres", () -> postgres.query("select 1").execute()),
                        new DependencyCheck(
                                "kafka",
                                () ->
                                        Future.fromCompletionStage(
                                                kafkaAdmin
                                                        .describeCluster()
                                                        .clusterId()
                                                        .toCompletionStage(),
                                                vertx.getOrCreateContext())),
                        new DependencyCheck(
                                "opensearch",
                                () ->
                                        Future.fromCompletionStage(
                                                        openSearch.sendAsync(
                                                                "GET", "/_cluster/health", null),
                                                        vertx.getOrCreateContext())
                                                .compose(
                                                        r ->
                                                                r.ok()
                                                                                && !"red"
                                                                                        .equals(
                                                                                                r.body()
                                                                                                        .path(
                                                                                                                "status")
                                                                                                        .asText())
                                                                        ? Future.succeededFuture()
                                                                        : Future.failedFuture(
                                                                                "cluster status "
                                                                                        + r.body()
                                                                                                .path(
                                                                                                        "status")
                                                                                                .asText(
                                                                                                        String
                                                                                                                .valueOf(
                                                                                                                        r
                                                                                                                                .status()))))),
                        new DependencyCheck("redis", () -> redis.send(Request.cmd(Command.PING))));
        ApiVerticle api =
                new ApiVerticle(
                        config.server().host(),
                        config.server().port(),
                        new Readiness(vertx, checks, 2000));
        try {
            vertx.deployVerticle(api).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            kafkaAdmin.close(Duration.ofSeconds(2));
            throw new IllegalStateException(
                    "serving tier failed to start on "
                            + config.server().host()
                            + ":"
                            + config.server().port()
                            + ": "
                            + e.getMessage(),
                    e);
        }
        return new ServingApp(vertx, postgres, redis, kafkaAdmin, api);
    }

    static PgConnectOptions pgOptions(EngramConfig.Postgres config) {
        String url = config.url().startsWith("jdbc:") ? config.url().substring(5) : config.url();
        return PgConnectOptions.fromUri(url).setUser(config.user()).setPassword(config.password());
    }

    public int port() {
        return api.actualPort();
    }

    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        try {
            vertx.undeploy(vertx.deploymentIDs().iterator().next()).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing below stops what is left
        }
        kafkaAdmin.close(Duration.ofSeconds(5));
        redis.close();
        try {
            postgres.close().await(10, TimeUnit.SECONDS);
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
    }
}
