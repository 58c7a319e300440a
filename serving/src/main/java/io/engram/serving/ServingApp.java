package io.engram.serving;

import io.engram.config.EngramConfig;
import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.DedupThresholds;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.Embedder;
import io.engram.embedding.OnnxEmbedder;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.LlmSettings;
import io.engram.query.HeuristicQueryExpander;
import io.engram.query.LlmQueryExpander;
import io.engram.query.QueryExpander;
import io.engram.ranking.RankingSettings;
import io.engram.serving.admin.MaintenanceAdmin;
import io.engram.serving.auth.ApiKeyAdmin;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.auth.RateLimiter;
import io.engram.serving.health.DependencyCheck;
import io.engram.serving.health.Readiness;
import io.engram.serving.memories.Memories;
import io.engram.serving.recall.Bookkeeper;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.recall.RecallService;
import io.engram.serving.recall.RecallStages;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.recall.RowCache;
import io.engram.serving.store.JdbcPool;
import io.engram.serving.store.OpenSearchHttp;
import io.engram.serving.store.PostgresOptions;
import io.engram.serving.store.RedisConnect;
import io.engram.serving.turns.TurnIngest;
import io.engram.store.opensearch.OpenSearchClient;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import io.vertx.pgclient.PgBuilder;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The serving tier as one unit: its Vert.x instance, the clients of every dependency and the
 * deployed API. {@link #close()} stops accepting requests, lets those in flight finish, flushes the
 * recall bookkeeping, then closes the clients.
 */
public final class ServingApp implements AutoCloseable {

    /**
     * How long a cached answer (Redis) or a cached text's vector (in process) lives at most: also
     * the longest a forgotten user's texts can stay in the memory of a serving process that did not
     * hear of the forget ({@link PeerNotices}).
     */
    public static final int CACHE_SECONDS = 300;

    /**
     * How long a user's memories read into the row cache are used at most ({@link RowCache}): the
     * longest their recall bookkeeping (usage count) may be out of date in a ranking, and the
     * longest they may stay in the memory of a process that did not hear of the user's forget.
     */
    public static final int ROW_SECONDS = 60;

    /** A user with more active memories than this is not kept in the row cache. */
    public static final int ROWS_PER_USER = 1000;

    private final Vertx vertx;
    private final Pool postgres;
    private final Redis redis;
    private final Admin kafkaAdmin;
    private final ApiVerticle api;
    private final String deployment;
    private final Bookkeeper bookkeeper;
    private final EmbeddingWorker embedder;
    private final Optional<CachingEmbedder> embeddingCache;
    private final Optional<RowCache> rowCache;
    private final Memories memories;
    private final TurnIngest turns;
    private final JdbcPool jdbc;
    private final PeerNotices peers;

    private ServingApp(
            Vertx vertx,
            Pool postgres,
            Redis redis,
            Admin kafkaAdmin,
            ApiVerticle api,
            String deployment,
            Bookkeeper bookkeeper,
            EmbeddingWorker embedder,
            Optional<CachingEmbedder> embeddingCache,
            Optional<RowCache> rowCache,
            Memories memories,
            TurnIngest turns,
            JdbcPool jdbc,
            PeerNotices peers) {
        this.vertx = vertx;
        this.postgres = postgres;
        this.redis = redis;
        this.kafkaAdmin = kafkaAdmin;
        this.api = api;
        this.deployment = deployment;
        this.bookkeeper = bookkeeper;
        this.embedder = embedder;
        this.embeddingCache = embeddingCache;
        this.rowCache = rowCache;
        this.memories = memories;
        this.turns = turns;
        this.jdbc = jdbc;
        this.peers = peers;
    }

    public static ServingApp start(EngramConfig config) {
        Vertx vertx =
                Vertx.vertx(
                        new VertxOptions()
                                .setMetricsOptions(
                                        new MicrometerMetricsOptions()
                                                .setPrometheusOptions(
                                                        new VertxPrometheusOptions()
                                                                .setEnabled(true))
                                                .setEnabled(true)));
        Pool postgres =
                PgBuilder.pool()
                        .with(new PoolOptions().setMaxSize(config.postgres().poolSize()))
                        .connectingTo(PostgresOptions.current(config.postgres()))
                        .using(vertx)
                        .build();
        Redis redis = Redis.createClient(vertx, RedisConnect.options(config.redis()));
        Map<String, Object> adminSettings = new HashMap<>(config.kafka().clientProperties());
        adminSettings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        adminSettings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        Admin kafkaAdmin = Admin.create(adminSettings);
        OpenSearchClient indexWriter =
                OpenSearchClient.forConfig(config.openSearch(), Duration.ofSeconds(3));
        OpenSearchHttp openSearch =
                new OpenSearchHttp(
                        vertx, config.openSearch().url(), config.openSearch().auth(), 3000, 32);
        String alias = config.memoryIndexAlias();

        Embedder model =
                OnnxEmbedder.load(
                        OnnxEmbedder.ModelSpec.forVersion(config.embedding().version()),
                        config.embedding().modelPath(config.home()),
                        config.embedding().intraOpThreads());
        Optional<CachingEmbedder> embeddingCache =
                config.embedding().cacheSize() > 0
                        ? Optional.of(
                                new CachingEmbedder(
                                        model,
                                        config.embedding().cacheSize(),
                                        Duration.ofSeconds(CACHE_SECONDS),
                                        System::nanoTime))
                        : Optional.empty();
        // Texts are users' data: an expired one leaves memory within a minute, calls or none.
        embeddingCache.ifPresent(c -> vertx.setPeriodic(60_000, id -> c.expire()));
        Embedder cached = embeddingCache.<Embedder>map(c -> c).orElse(model);
        // At most 32 recall calls waiting per thread (~0.1 s at 3 ms each): beyond that a recall
        // goes on without its vector (BM25 only, degraded "embedder") instead of queueing towards
        // its deadline behind others. Writes have a backlog of the same size of their own, so a
        // recall overload does not turn stores into 503s.
        EmbeddingWorker embedder =
                new EmbeddingWorker(
                        vertx,
                        cached,
                        config.embedding().queryWorkers(),
                        32 * config.embedding().queryWorkers());
        counter(
                "engram.recall.embeddings.expired",
                embedder,
                EmbeddingWorker::expired,
                "Query texts dropped unembedded: their recall had stopped waiting");

        Optional<QueryExpander> llm = Optional.empty();
        if (config.llm().enabled()) {
            llm =
                    Optional.of(
                            new LlmQueryExpander(
                                    new ChatCompletionClient(
                                            new LlmSettings(
                                                    config.llm().url(),
                                                    config.llm().model(),
                                                    Optional.of(config.llm().apiKey())
                                                            .filter(k -> !k.isEmpty()),
                                                    Duration.ofMillis(config.llm().timeoutMs()),
                                                    0,
                                                    256))));
        }
        ResultCache cache = new ResultCache(redis, CACHE_SECONDS, 200);
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
        Optional<RowCache> rows =
                config.server().recallRowCacheSize() > 0
                        ? Optional.of(
                                new RowCache(
                                        config.server().recallRowCacheSize(),
                                        ROWS_PER_USER,
                                        Duration.ofSeconds(ROW_SECONDS),
                                        System::nanoTime))
                        : Optional.empty();
        rows.ifPresent(
                r -> {
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
                    gauge(
                            "engram.recall.rows.kept",
                            r,
                            RowCache::rows,
                            "Memories in the row cache");
                });
        ApiKeyAuthenticator authenticator =
                new ApiKeyAuthenticator(postgres, config.auth().keyCacheMs(), 1000);
        PeerNotices peers =
                new PeerNotices(
                        vertx,
                        redis,
                        RedisConnect.options(config.redis()),
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
        Bookkeeper bookkeeper = new Bookkeeper(vertx, postgres, 250);
        RecallService recall =
                new RecallService(
                        vertx,
                        postgres,
                        openSearch,
                        alias,
                        embedder,
                        new HeuristicQueryExpander(),
                        llm,
                        Optional.of(cache),
                        rows,
                        bookkeeper,
                        RecallService.Limits.DEFAULT.within(
                                config.server().recallDeadlineMs(),
                                config.server().maxRecallsInFlight()),
                        new RecallStages(BackendRegistries.getDefaultNow()));
        ChangePlanner planner =
                new ChangePlanner(
                        new DedupPolicy(
                                new DedupThresholds(
                                        config.dedup().updateSimilarity(),
                                        config.dedup().relatedSimilarity(),
                                        config.dedup().supersedeMinSimilarity())),
                        embedder.version());
        JdbcPool jdbc = new JdbcPool(config.postgres(), 4);
        Memories memories =
                Memories.create(
                        vertx,
                        postgres,
                        jdbc,
                        openSearch,
                        indexWriter,
                        alias,
                        embedder,
                        planner,
                        Optional.of(cache),
                        peers);
        TurnIngest turns =
                new TurnIngest(
                        vertx, config.kafka().clientProperties(), config.kafka().turnsTopic());
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
                                        openSearch
                                                .send("GET", "/_cluster/health", null)
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
                        new ApiVerticle.Services(
                                new Readiness(vertx, checks, 2000),
                                authenticator,
                                new RateLimiter(),
                                recall,
                                memories,
                                turns,
                                new ApiKeyAdmin(postgres, peers::keyRevoked),
                                new MaintenanceAdmin(postgres),
                                RankingSettings.DEFAULT,
                                PrometheusScrapingHandler.create(),
                                openApi()));
        String deployment;
        try {
            deployment = vertx.deployVerticle(api).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            kafkaAdmin.close(Duration.ofSeconds(2));
            turns.close();
            throw new IllegalStateException(
                    "serving tier failed to start on "
                            + config.server().host()
                            + ":"
                            + config.server().port()
                            + ": "
                            + e.getMessage(),
                    e);
        }
        return new ServingApp(
                vertx,
                postgres,
                redis,
                kafkaAdmin,
                api,
                deployment,
                bookkeeper,
                embedder,
                embeddingCache,
                rows,
                memories,
                turns,
                jdbc,
                peers);
    }

    /** A Prometheus counter read from {@code source} when scraped. */
    private static <T> void counter(
            String name, T source, ToDoubleFunction<T> count, String description) {
        FunctionCounter.builder(name, source, count)
                .description(description)
                .register(BackendRegistries.getDefaultNow());
    }

    /** A Prometheus gauge read from {@code source} when scraped. */
    private static <T> void gauge(
            String name, T source, ToDoubleFunction<T> value, String description) {
        Gauge.builder(name, source, value)
                .description(description)
                .register(BackendRegistries.getDefaultNow());
    }

    static String openApi() {
        try (InputStream in = ServingApp.class.getResourceAsStream("/openapi.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("openapi.yaml is missing from the serving jar", e);
        }
    }

    public int port() {
        return api.actualPort();
    }

    /** The in-process cache of texts' vectors, unless it is configured off. */
    public Optional<CachingEmbedder> embeddingCache() {
        return embeddingCache;
    }

    /** The memories recall keeps after reading them, unless it is configured off. */
    public Optional<RowCache> rowCache() {
        return rowCache;
    }

    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        try {
            vertx.undeploy(deployment).await(30, TimeUnit.SECONDS);
            bookkeeper.close().await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing below stops what is left
        }
        turns.close();
        memories.close();
        kafkaAdmin.close(Duration.ofSeconds(5));
        peers.close();
        redis.close();
        jdbc.close();
        try {
            postgres.close().await(10, TimeUnit.SECONDS);
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
        embedder.close();
    }
}
