package io.engram.serving;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.serving.health.DependencyCheck;
import io.engram.serving.store.JdbcPool;
import io.engram.serving.store.OpenSearchReads;
import io.engram.serving.store.PostgresOptions;
import io.engram.store.opensearch.OpenSearchClients;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.HealthStatus;

/** The clients of the stores and the broker, opened in order and registered to close. */
record ServingClients(
        Pool postgres,
        RedisConnection redis,
        Admin kafkaAdmin,
        OpenSearchReads openSearch,
        OpenSearchClient indexWriter,
        JdbcPool jdbc) {

    /**
     * How long a Redis command may take before it counts as failed (each caller's own timeout is
     * shorter: recall waits 200 ms for the cache).
     */
    static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

    static ServingClients open(EngramConfig config, Vertx vertx, Opened opened) {
        Pool postgres =
                PgBuilder.pool()
                        .with(new PoolOptions().setMaxSize(config.postgres().poolSize()))
                        .connectingTo(PostgresOptions.current(config.postgres()))
                        .using(vertx)
                        .build();
        opened.add("postgres", postgres, () -> postgres.close().await(10, TimeUnit.SECONDS));
        // The result cache, cache generations and the notices between instances need it.
        if (!config.redis().configured()) {
            throw new IllegalArgumentException("redis.url: the serving tier needs Redis");
        }
        RedisConnection redis = RedisConnection.open(config.redis(), REDIS_TIMEOUT);
        opened.add("redis", redis, redis::close);
        Map<String, Object> adminSettings = new HashMap<>(config.kafka().clientProperties());
        adminSettings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        adminSettings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        Admin kafkaAdmin = Admin.create(adminSettings);
        opened.add("kafka admin", kafkaAdmin, () -> kafkaAdmin.close(Duration.ofSeconds(5)));
        JdbcPool jdbc = new JdbcPool(config.postgres(), 4);
        opened.add("jdbc pool", jdbc, jdbc::close);
        return new ServingClients(
                postgres,
                redis,
                kafkaAdmin,
                new OpenSearchReads(
                        vertx, config.openSearch().url(), config.openSearch().auth(), 3000, 32),
                OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(3)),
                jdbc);
    }

    /** What readiness asks of each dependency. */
    List<DependencyCheck> checks(Vertx vertx) {
        return List.of(
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
                new DependencyCheck("opensearch", this::openSearchHealth),
                new DependencyCheck(
                        "redis",
                        () ->
                                Future.fromCompletionStage(
                                        redis.async(c -> c.ping()), vertx.getOrCreateContext())));
    }

    /** Up unless the cluster is red or does not answer. */
    private Future<?> openSearchHealth() {
        return openSearch
                .call(c -> c.cluster().health())
                .compose(
                        r ->
                                r.status() == HealthStatus.Red
                                        ? Future.failedFuture("cluster status red")
                                        : Future.succeededFuture());
    }
}
