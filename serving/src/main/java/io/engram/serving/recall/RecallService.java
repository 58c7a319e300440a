package io.engram.serving.recall;

import io.engram.memory.Scope;
import io.engram.query.QueryExpander;
import io.engram.query.RecallGate;
import io.engram.query.agentic.RetrievalPlanner;
import io.engram.query.agentic.RetrievalStrategy;
import io.engram.serving.store.OpenSearchReads;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recall, as a sequence of named stages: the gate decides whether to search; the result cache may
 * answer; {@link QueryPlanning} rewrites, expands and embeds; {@link HybridSearch} runs one
 * multi-search (k-NN and BM25 per query) and fuses relevance; {@link Hydration} reads the
 * candidates' rows; {@link RecallAnswer} ranks and renders; bookkeeping follows. A dependency that
 * fails or is slow degrades the answer and is named in {@code degraded}; the call itself still
 * succeeds.
 */
public final class RecallService {

    /**
     * Timeouts and sizes of the recall path. Each stage has its own timeout and all of them share
     * {@code deadlineMs}: a stage is given at most what is left of it, and one that would start
     * with less than {@link RecallCall#MIN_STAGE_MS} left is skipped ({@code degraded:
     * ["deadline"]}), so under overload no request does work whose answer nobody waits for. Beyond
     * {@code maxInFlight} recalls at once, a recall is answered at once with no memories ({@code
     * degraded: ["overload"]}) instead of queueing.
     */
    public record Limits(
            long embedTimeoutMs,
            long searchTimeoutMs,
            long hydrateTimeoutMs,
            long llmTimeoutMs,
            int auxPerQuery,
            long deadlineMs,
            int maxInFlight) {
        public static final Limits DEFAULT = new Limits(1000, 1500, 1000, 1500, 3, 1000, 256);

        /** The default timeouts under another deadline and in-flight limit. */
        public Limits within(long deadline, int inFlight) {
            return new Limits(
                    embedTimeoutMs,
                    searchTimeoutMs,
                    hydrateTimeoutMs,
                    llmTimeoutMs,
                    auxPerQuery,
                    deadline,
                    inFlight);
        }
    }

    private final Vertx vertx;
    private final EmbeddingWorker embedder;
    private final Optional<ResultCache> cache;
    private final Bookkeeper bookkeeper;
    private final Limits limits;
    private final RecallStages stages;
    private final QueryPlanning planning;
    private final HybridSearch search;
    private final Hydration hydration;
    private final ChainOfQuery chain;
    private final AtomicInteger inFlight = new AtomicInteger();

    public RecallService(
            Vertx vertx,
            Pool pool,
            OpenSearchReads openSearch,
            String alias,
            EmbeddingWorker embedder,
            QueryExpander heuristic,
            Optional<QueryExpander> llm,
            Optional<RetrievalPlanner> llmPlanner,
            Optional<ResultCache> cache,
            Optional<RowCache> rows,
            Bookkeeper bookkeeper,
            Limits limits,
            RecallStages stages) {
        this.vertx = vertx;
        this.embedder = embedder;
        this.cache = cache;
        this.bookkeeper = bookkeeper;
        this.limits = limits;
        this.stages = stages;
        this.planning =
                new QueryPlanning(vertx, embedder, heuristic, llm, llmPlanner, limits, stages);
        this.search = new HybridSearch(pool, openSearch, alias, embedder.version(), limits);
        this.hydration = new Hydration(pool, openSearch, alias, embedder.version(), rows, limits);
        this.chain = new ChainOfQuery(vertx, planning, search, hydration, limits);
    }

    /**
     * One recall's answer, and the time its stages took as a {@code Server-Timing} header value.
     */
    public record Recall(JsonObject body, String serverTiming) {}

    public Future<Recall> search(SearchRequest request, String requestId) {
        RecallCall call = new RecallCall(request, requestId, limits.deadlineMs());
        Future<JsonObject> body;
        if (inFlight.incrementAndGet() > limits.maxInFlight()) {
            inFlight.decrementAndGet();
            body =
                    Future.succeededFuture(
                            RecallAnswer.skipped(
                                    requestId,
                                    limits.maxInFlight() + " recalls are already running",
                                    new JsonArray().add("overload")));
        } else {
            try {
                body = answer(call);
            } catch (RuntimeException e) {
                inFlight.decrementAndGet();
                throw e;
            }
            body = body.onComplete(ar -> inFlight.decrementAndGet());
        }
        return body.map(
                b ->
                        new Recall(
                                b,
                                RecallStages.serverTiming(
                                        call.stageNanos, System.nanoTime() - call.started)));
    }

    private Future<JsonObject> answer(RecallCall call) {
        SearchRequest request = call.request;
        RecallGate.Verdict verdict = RecallGate.decide(request.query(), request.force());
        if (!verdict.search()) {
            return Future.succeededFuture(
                    RecallAnswer.skipped(call.requestId, verdict.reason(), new JsonArray()));
        }
        // While an invalidation of the scope waits for Redis, its cached answers and generation
        // may be older than its memories: neither they nor the row cache are used.
        if (cache.isEmpty() || !cache.get().current(request.scope())) {
            return planning.prepare(call).compose(v -> retrieve(call));
        }
        // The query embedding does not wait for Redis: on a hit its vector is not needed (and the
        // in-process embedding cache keeps it), on a miss it is ready sooner. Only a paid LLM
        // expansion waits to know that the answer is not cached.
        Future<Void> prepared = planning.usesLlm(call) ? null : planning.prepare(call);
        ResultCache c = cache.get();
        return stages.timed(RecallStages.Stage.CACHE, call.stageNanos, () -> cached(c, call))
                .compose(
                        hit -> {
                            if (hit != null) {
                                bookkeep(call.request.scope(), hit.getJsonArray("memories"));
                                return Future.succeededFuture(
                                        hit.put("request_id", call.requestId).put("cached", true));
                            }
                            return (prepared != null ? prepared : planning.prepare(call))
                                    .compose(v -> retrieve(call))
                                    .onSuccess(response -> cacheAfterwards(c, call, response));
                        });
    }

    /**
     * Keeps a complete answer in Redis once it has been written: its copy and the write to Redis
     * are not on its path.
     */
    private void cacheAfterwards(ResultCache c, RecallCall call, JsonObject response) {
        if (call.cached == null || !call.degraded.isEmpty()) {
            return;
        }
        vertx.runOnContext(
                v -> c.put(call.cached, response.copy().put("cached", false)).onFailure(err -> {}));
    }

    /** The cached answer, or null when there is none or Redis cannot tell. */
    private Future<JsonObject> cached(ResultCache c, RecallCall call) {
        return c.lookup(call.request.scope(), call.request.canonical())
                .map(
                        lookup -> {
                            call.cached = lookup;
                            return lookup.hit();
                        })
                .recover(
                        err -> {
                            call.degraded.add("redis");
                            return Future.succeededFuture(null);
                        });
    }

    /**
     * Search, hydrate, then (for a chain) the later hops, and rank once: the answer from the
     * prepared queries.
     */
    private Future<JsonObject> retrieve(RecallCall call) {
        long started = System.nanoTime();
        return stages.timed(RecallStages.Stage.SEARCH, call.stageNanos, () -> search.search(call))
                .compose(
                        v ->
                                stages.timed(
                                        RecallStages.Stage.HYDRATE,
                                        call.stageNanos,
                                        () -> hydration.hydrate(call)))
                .compose(
                        v -> {
                            call.hops.add(
                                    new RecallCall.HopRecord(
                                            1,
                                            call.queries,
                                            call.candidates.size(),
                                            call.route.reason(),
                                            System.nanoTime() - started));
                            if (call.route.strategy() != RetrievalStrategy.CHAIN) {
                                return Future.<Void>succeededFuture();
                            }
                            return stages.timed(
                                    RecallStages.Stage.HOPS,
                                    call.stageNanos,
                                    () -> chain.follow(call));
                        })
                .compose(
                        v ->
                                stages.timed(
                                        RecallStages.Stage.RANK,
                                        call.stageNanos,
                                        () -> Future.succeededFuture(respond(call))));
    }

    private JsonObject respond(RecallCall call) {
        RecallAnswer.Answer answer = RecallAnswer.of(call, Instant.now());
        bookkeeper.recalled(call.request.scope(), answer.returned());
        return answer.body();
    }

    private void bookkeep(Scope scope, JsonArray memories) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            ids.add(UUID.fromString(memories.getJsonObject(i).getString("id")));
        }
        bookkeeper.recalled(scope, ids);
    }

    /** Writes queued recall bookkeeping now (before a forget, so nothing is written after it). */
    public Future<Void> flushBookkeeping() {
        return bookkeeper.flush();
    }

    /** The embedder used for queries, for other services sharing it. */
    public EmbeddingWorker embedder() {
        return embedder;
    }
}
