package io.engram.services;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four real services Engram needs, started together (in parallel) under one directory and
 * stopped together in reverse order.
 */
public final class LocalServices implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalServices.class);

    /** Where and how to start: preferred ports (0 = any free), heap sizes, durability. */
    public record Spec(
            Path home,
            String database,
            int postgresPort,
            int kafkaPort,
            int kafkaControllerPort,
            int openSearchPort,
            int redisPort,
            String openSearchHeap,
            String kafkaHeap,
            boolean durable) {

        /** Any free ports, small heaps, no fsync: a throwaway set for tests. */
        public static Spec forTests(Path home) {
            return new Spec(home, "engram", 0, 0, 0, 0, 0, "512m", "384m", false);
        }
    }

    /** A service that can be stopped and started again on its port, with its data. */
    public enum Stoppable {
        POSTGRES,
        OPENSEARCH,
        REDIS
    }

    private final Spec spec;
    private volatile PostgresServer postgres;
    private final KafkaBroker kafka;
    private volatile OpenSearchNode openSearch;
    private volatile RedisServer redis;

    private LocalServices(
            Spec spec,
            PostgresServer postgres,
            KafkaBroker kafka,
            OpenSearchNode openSearch,
            RedisServer redis) {
        this.spec = spec;
        this.postgres = postgres;
        this.kafka = kafka;
        this.openSearch = openSearch;
        this.redis = redis;
    }

    public static LocalServices start(Spec spec) {
        Path home = spec.home();
        CompletableFuture<PostgresServer> postgres =
                CompletableFuture.supplyAsync(
                        () ->
                                PostgresServer.start(
                                        home.resolve("postgres"),
                                        spec.postgresPort(),
                                        spec.database(),
                                        spec.durable()));
        CompletableFuture<KafkaBroker> kafka =
                CompletableFuture.supplyAsync(
                        () ->
                                KafkaBroker.start(
                                        home.resolve("kafka"),
                                        spec.kafkaPort(),
                                        spec.kafkaControllerPort(),
                                        spec.kafkaHeap()));
        CompletableFuture<OpenSearchNode> openSearch =
                CompletableFuture.supplyAsync(
                        () ->
                                OpenSearchNode.start(
                                        home.resolve("opensearch"),
                                        spec.openSearchPort(),
                                        spec.openSearchHeap()));
        CompletableFuture<RedisServer> redis =
                CompletableFuture.supplyAsync(
                        () ->
                                RedisServer.start(
                                        home.resolve("redis"), spec.redisPort(), spec.durable()));
        try {
            CompletableFuture.allOf(postgres, kafka, openSearch, redis).join();
        } catch (CompletionException e) {
            // Stop whatever did start before reporting the first failure.
            List<AutoCloseable> started = new ArrayList<>();
            for (CompletableFuture<? extends AutoCloseable> f :
                    List.of(redis, openSearch, kafka, postgres)) {
                if (!f.isCompletedExceptionally()) {
                    started.add(f.join());
                }
            }
            closeAll(started);
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r
                    ? r
                    : new ServiceStartException("services failed to start", cause);
        }
        return new LocalServices(
                spec, postgres.join(), kafka.join(), openSearch.join(), redis.join());
    }

    public PostgresServer postgres() {
        return postgres;
    }

    public KafkaBroker kafka() {
        return kafka;
    }

    public OpenSearchNode openSearch() {
        return openSearch;
    }

    public RedisServer redis() {
        return redis;
    }

    /**
     * Stops one service as an outage would: its clients see connections refused. PostgreSQL ends as
     * in a crash (immediate shutdown), the others as on a normal stop.
     */
    public synchronized void stop(Stoppable service) {
        switch (service) {
            case POSTGRES -> postgres.crash(spec.home().resolve("postgres"));
            case OPENSEARCH -> openSearch.close();
            case REDIS -> redis.close();
        }
    }

    /**
     * Starts a stopped service again on the port it had, with its data (Redis keeps its data only
     * when the set is durable). Fails if it cannot have its port back.
     */
    public synchronized void restart(Stoppable service) {
        Path home = spec.home();
        int port;
        int now;
        switch (service) {
            case POSTGRES -> {
                port = postgres.port();
                postgres =
                        PostgresServer.start(
                                home.resolve("postgres"), port, spec.database(), spec.durable());
                now = postgres.port();
            }
            case OPENSEARCH -> {
                port = openSearch.httpPort();
                openSearch =
                        OpenSearchNode.start(
                                home.resolve("opensearch"), port, spec.openSearchHeap());
                now = openSearch.httpPort();
            }
            default -> {
                port = redis.port();
                redis = RedisServer.start(home.resolve("redis"), port, spec.durable());
                now = redis.port();
            }
        }
        if (now != port) {
            throw new ServiceStartException(
                    service + " came back on port " + now + " instead of " + port, null);
        }
    }

    @Override
    public void close() {
        closeAll(List.of(redis, openSearch, kafka, postgres));
    }

    private static void closeAll(List<? extends AutoCloseable> services) {
        for (AutoCloseable service : services) {
            try {
                service.close();
            } catch (Exception e) {
                LOG.warn("stopping {} failed", service.getClass().getSimpleName(), e);
            }
        }
    }
}
