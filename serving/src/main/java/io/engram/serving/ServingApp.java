package io.engram.serving;

import io.engram.config.EngramConfig;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.Embedder;
import io.engram.ranking.RankingSettings;
import io.engram.serving.admin.MaintenanceAdmin;
import io.engram.serving.auth.ApiKeyAdmin;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.auth.RateLimiter;
import io.engram.serving.health.Readiness;
import io.engram.serving.health.WritePlaneHealth;
import io.engram.serving.memories.Memories;
import io.engram.serving.recall.Bookkeeper;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.recall.RecallService;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.recall.RowCache;
import io.engram.serving.turns.TurnIngest;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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

    private final Opened opened;
    private final Vertx vertx;
    private final ApiVerticle api;
    private final Optional<CachingEmbedder> embeddingCache;
    private final Optional<RowCache> rowCache;

    private ServingApp(
            Opened opened,
            Vertx vertx,
            ApiVerticle api,
            Optional<CachingEmbedder> embeddingCache,
            Optional<RowCache> rowCache) {
        this.opened = opened;
        this.vertx = vertx;
        this.api = api;
        this.embeddingCache = embeddingCache;
        this.rowCache = rowCache;
    }

    /**
     * Opens the clients of every dependency, builds the services and deploys the API. A start that
     * fails closes what it had opened, last first, and throws.
     */
    public static ServingApp start(EngramConfig config) {
        Opened opened = new Opened();
        try {
            return start(config, opened);
        } catch (RuntimeException | Error e) {
            opened.closeAll();
            if (e instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(
                    "serving tier failed to start on "
                            + config.server().host()
                            + ":"
                            + config.server().port()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static ServingApp start(EngramConfig config, Opened opened) {
        Vertx vertx = vertxWithMetrics();
        opened.add("vertx", vertx, () -> vertx.close().await(30, TimeUnit.SECONDS));
        ServingClients clients = ServingClients.open(config, vertx, opened);
        Embedder model = ServingParts.loadModel(config);
        Optional<CachingEmbedder> embeddingCache;
        EmbeddingWorker embedder;
        try {
            embeddingCache = ServingParts.embeddingCache(config, vertx, model);
            embedder = ServingParts.queryEmbedder(config, vertx, embeddingCache, model);
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
        // The workers own the model from here: closing them closes it.
        opened.add("query embedding", embedder, embedder::close);
        ResultCache cache = ServingParts.resultCache(vertx, clients.redis());
        Optional<RowCache> rows = ServingParts.rowCache(config, vertx);
        ApiKeyAuthenticator authenticator =
                new ApiKeyAuthenticator(clients.postgres(), config.auth().keyCacheMs(), 1000);
        PeerNotices peers =
                ServingParts.peers(config, vertx, clients.redis(), embedder, rows, authenticator);
        opened.add("peer notices", peers, peers::close);
        Bookkeeper bookkeeper = new Bookkeeper(vertx, clients.postgres(), 250);
        opened.add("bookkeeping", bookkeeper, () -> bookkeeper.close().await(10, TimeUnit.SECONDS));
        RecallService recall =
                ServingParts.recall(
                        config,
                        vertx,
                        clients,
                        embedder,
                        ServingParts.llmExpander(config),
                        cache,
                        rows,
                        bookkeeper);
        Memories memories =
                Memories.create(
                        vertx,
                        clients.postgres(),
                        clients.jdbc(),
                        clients.openSearch(),
                        clients.indexWriter(),
                        config.memoryIndexAlias(),
                        embedder,
                        ServingParts.planner(config, embedder),
                        Optional.of(cache),
                        peers);
        opened.add("memory services", memories, memories::close);
        TurnIngest turns =
                new TurnIngest(
                        vertx, config.kafka().clientProperties(), config.kafka().turnsTopic());
        opened.add("turn producer", turns, turns::close);
        WritePlaneHealth writePlane = ServingParts.writePlane(config, vertx, clients.kafkaAdmin());
        opened.add("write-plane health", writePlane, writePlane::close);
        ApiVerticle api =
                new ApiVerticle(
                        config.server().host(),
                        config.server().port(),
                        new ApiVerticle.Services(
                                new Readiness(vertx, clients.checks(vertx), 2000),
                                writePlane,
                                authenticator,
                                new RateLimiter(),
                                recall,
                                memories,
                                turns,
                                new ApiKeyAdmin(clients.postgres(), peers::keyRevoked),
                                new MaintenanceAdmin(clients.postgres()),
                                RankingSettings.DEFAULT,
                                PrometheusScrapingHandler.create(),
                                openApi()));
        String deployment;
        try {
            deployment = vertx.deployVerticle(api).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        // Stops accepting first, lets requests in flight finish; the bookkeeping they queued is
        // written before PostgreSQL closes.
        opened.add("API", api, () -> vertx.undeploy(deployment).await(30, TimeUnit.SECONDS));
        return new ServingApp(opened, vertx, api, embeddingCache, rows);
    }

    private static Vertx vertxWithMetrics() {
        return Vertx.vertx(
                new VertxOptions()
                        .setMetricsOptions(
                                new MicrometerMetricsOptions()
                                        .setPrometheusOptions(
                                                new VertxPrometheusOptions().setEnabled(true))
                                        .setEnabled(true)));
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

    /**
     * Stops accepting requests, lets those in flight finish, writes their bookkeeping, then closes
     * the clients: everything in the reverse order of its opening.
     */
    @Override
    public void close() {
        opened.closeAll();
    }
}
