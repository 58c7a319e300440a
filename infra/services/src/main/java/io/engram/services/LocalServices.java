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

    private final PostgresServer postgres;
    private final KafkaBroker kafka;
    private final OpenSearchNode openSearch;
    private final RedisServer redis;

    private LocalServices(
            PostgresServer postgres,
            KafkaBroker kafka,
            OpenSearchNode openSearch,
            RedisServer redis) {
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
        return new LocalServices(postgres.join(), kafka.join(), openSearch.join(), redis.join());
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
