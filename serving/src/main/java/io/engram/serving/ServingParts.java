package io.engram.serving;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.DedupThresholds;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.health.WritePlaneProgress;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.LlmSettings;
import io.engram.query.HeuristicQueryExpander;
import io.engram.query.LlmQueryExpander;
import io.engram.query.QueryExpander;
import io.engram.query.agentic.LlmRetrievalPlanner;
import io.engram.query.agentic.RetrievalPlanner;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.health.WritePlaneHealth;
import io.engram.serving.recall.Bookkeeper;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.recall.RecallService;
import io.engram.serving.recall.RecallStages;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.recall.RowCache;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Vertx;
import io.vertx.micrometer.backends.BackendRegistries;
import java.time.Duration;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;

/**
 * The parts of the serving tier built from its configuration: the query embedding, the caches, the
 * peers' notices, recall and the change planner, each with the metrics it reports.
 */
final class ServingParts {

    private ServingParts() {}

    static Embedder loadModel(EngramConfig config) {
        return OnnxEmbedder.load(
                ModelSpec.forVersion(config.embedding().version()),
                config.embedding().modelPath(config.home()),
                config.embedding().intraOpThreads());
    }

    /** The in-process cache of texts' vectors, unless configured off. */
    static Optional<CachingEmbedder> embeddingCache(
            EngramConfig config, Vertx vertx, Embedder model) {
        if (config.embedding().cacheSize() <= 0) {
            return Optional.empty();
        }
        CachingEmbedder c =
                new CachingEmbedder(
                        model,
                        config.embedding().cacheSize(),
                        Duration.ofSeconds(ServingApp.CACHE_SECONDS),
                        System::nanoTime);
        // Texts are users' data: an expired one leaves memory within a minute, calls or none.
        vertx.setPeriodic(60_000, id -> c.expire());
        return Optional.of(c);
    }

    static EmbeddingWorker queryEmbedder(
            EngramConfig config, Vertx vertx, Optional<CachingEmbedder> cache, Embedder model) {
        // At most 32 recall calls waiting per thread (~0.1 s at 3 ms each): beyond that a recall
        // goes on without its vector (BM25 only, degraded "embedder") instead of queueing towards
        // its deadline behind others. Writes have a backlog of the same size of their own, so a
        // recall overload does not turn stores into 503s.
        EmbeddingWorker embedder =
                new EmbeddingWorker(
                        vertx,
                        cache.<Embedder>map(c -> c).orElse(model),
                        config.embedding().queryWorkers(),
                        32 * config.embedding().queryWorkers());
        counter(
                "engram.recall.embeddings.expired",
                embedder,
                EmbeddingWorker::expired,
                "Query texts dropped unembedded: their recall had stopped waiting");
        return embedder;
    }

    static Optional<QueryExpander> llmExpander(EngramConfig config) {
        return recallLlm(config).map(LlmQueryExpander::new);
    }

    /** The retrieval planner backed by the configured model, when there is one. */
    static Optional<RetrievalPlanner> llmPlanner(EngramConfig config) {
        return recallLlm(config)
                .map(
                        client ->
                                new LlmRetrievalPlanner(
                                        client, LlmRetrievalPlanner.Prompts.DEFAULT));
    }

    /** The chat client of recall: no retries (the recall deadline is short), short answers. */
    private static Optional<ChatCompletionClient> recallLlm(EngramConfig config) {
        if (!config.llm().enabled()) {
            return Optional.empty();
        }
        return Optional.of(
                new ChatCompletionClient(
                        new LlmSettings(
                                config.llm().url(),
                                config.llm().model(),
                                Optional.of(config.llm().apiKey()).filter(k -> !k.isEmpty()),
                                Duration.ofMillis(config.llm().timeoutMs()),
                                0,
                                256)));
    }

    static ResultCache resultCache(Vertx vertx, RedisConnection redis) {
        ResultCache cache = new ResultCache(vertx, redis, ServingApp.CACHE_SECONDS, 200);
        vertx.setPeriodic(1_000, id -> cache.retryPending());
        gauge(
                "engram.cache.invalidations.pending",
                cache,
                ResultCache::pending,
                "Users whose cache invalidation Redis has not taken yet (sent again every second)");
        counter(
                "engram.cache.invalidations.dropped",
                cache,
                ResultCache::dropped,
                "Cache invalidations dropped: too many users' were waiting for Redis");
        return cache;
    }

    static Optional<RowCache> rowCache(EngramConfig config, Vertx vertx) {
        if (config.server().recallRowCacheSize() <= 0) {
            return Optional.empty();
        }
        RowCache r =
                new RowCache(
                        config.server().recallRowCacheSize(),
                        ServingApp.ROWS_PER_USER,
                        Duration.ofSeconds(ServingApp.ROW_SECONDS),
                        System::nanoTime);
        vertx.setPeriodic(60_000, id -> r.expire());
        counter(
                "engram.recall.hydrated.kept",
                r,
                c -> c.stats()[0],
                "Recalls hydrated from the row cache");
        counter(
                "engram.recall.hydrated.read",
                r,
                c -> c.stats()[1],
                "Recalls that could have used the row cache but read PostgreSQL");
        gauge("engram.recall.rows.kept", r, RowCache::rows, "Memories in the row cache");
        return Optional.of(r);
    }

    /** Forgets and key revocations heard from, and told to, the other serving instances. */
    static PeerNotices peers(
            EngramConfig config,
            Vertx vertx,
            RedisConnection redis,
            EmbeddingWorker embedder,
            Optional<RowCache> rows,
            ApiKeyAuthenticator authenticator) {
        PeerNotices peers =
                new PeerNotices(
                        vertx,
                        redis,
                        owners ->
                                embedder.forget(owners) + rows.map(r -> r.forget(owners)).orElse(0),
                        authenticator::invalidate,
                        authenticator::recheck,
                        200);
        peers.start();
        gauge(
                "engram.peers.listening",
                peers,
                f -> f.listening() ? 1 : 0,
                "1 while this instance hears the other instances' notices");
        counter(
                "engram.peers.notices.received",
                peers,
                PeerNotices::received,
                "Forgets and key revocations heard from other instances");
        return peers;
    }

    static RecallService recall(
            EngramConfig config,
            Vertx vertx,
            ServingClients clients,
            EmbeddingWorker embedder,
            Optional<QueryExpander> llm,
            ResultCache cache,
            Optional<RowCache> rows,
            Bookkeeper bookkeeper) {
        return new RecallService(
                vertx,
                clients.postgres(),
                clients.openSearch(),
                config.memoryIndexAlias(),
                embedder,
                new HeuristicQueryExpander(),
                llm,
                llmPlanner(config),
                Optional.of(cache),
                rows,
                bookkeeper,
                RecallService.Limits.DEFAULT.within(
                        config.server().recallDeadlineMs(), config.server().maxRecallsInFlight()),
                new RecallStages(BackendRegistries.getDefaultNow()));
    }

    static ChangePlanner planner(EngramConfig config, EmbeddingWorker embedder) {
        return new ChangePlanner(
                new DedupPolicy(
                        new DedupThresholds(
                                config.dedup().updateSimilarity(),
                                config.dedup().relatedSimilarity(),
                                config.dedup().supersedeMinSimilarity())),
                embedder.version());
    }

    /** A Prometheus counter read from {@code source} when scraped. */
    static <T> void counter(String name, T source, ToDoubleFunction<T> count, String description) {
        FunctionCounter.builder(name, source, count)
                .description(description)
                .register(BackendRegistries.getDefaultNow());
    }

    /** A Prometheus gauge read from {@code source} when scraped. */
    static <T> void gauge(String name, T source, ToDoubleFunction<T> value, String description) {
        Gauge.builder(name, source, value)
                .description(description)
                .register(BackendRegistries.getDefaultNow());
    }

    /**
     * The write plane's progress on the turns topic, read every five seconds; stalled after three
     * missed checkpoints (at least ten seconds) with turns waiting.
     */
    static WritePlaneHealth writePlane(EngramConfig config, Vertx vertx, Admin kafkaAdmin) {
        WritePlaneHealth health =
                new WritePlaneHealth(
                        vertx,
                        kafkaAdmin,
                        config.kafka().turnsTopic(),
                        EngramConfig.Kafka.EXTRACTION_GROUP,
                        new WritePlaneProgress(
                                WritePlaneProgress.stallLimit(
                                        Duration.ofMillis(
                                                config.extraction().checkpointIntervalMs()))),
                        5_000);
        gauge(
                "engram.write.plane.lag",
                health,
                h -> h.last().lag(),
                "Turns on the turns topic the extraction job has not committed (-1: unknown)");
        gauge(
                "engram.write.plane.state",
                health,
                h -> WritePlaneHealth.stateCode(h.last()),
                "0 caught up, 1 catching up, 2 stalled (offsets not moving while turns wait), 3 unknown");
        gauge(
                "engram.write.plane.seconds.since.progress",
                health,
                h -> h.last().secondsSinceProgress(),
                "Seconds since the extraction job's committed offsets last moved or nothing waited");
        return health;
    }
}
