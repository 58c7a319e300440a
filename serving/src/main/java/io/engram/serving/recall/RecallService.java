package io.engram.serving.recall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.extraction.Excerpts;
import io.engram.memory.Scope;
import io.engram.query.QueryExpander;
import io.engram.query.QueryRewriter;
import io.engram.query.RecallGate;
import io.engram.ranking.Collapse;
import io.engram.ranking.RankCandidate;
import io.engram.ranking.Ranked;
import io.engram.ranking.Ranker;
import io.engram.ranking.ReciprocalRankFusion;
import io.engram.ranking.ScoreBreakdown;
import io.engram.serving.store.OpenSearchHttp;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.text.Text;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recall: decide → rewrite → multi-query → one embedding call → one {@code _msearch} (k-NN and BM25
 * per query, relevance from both) → one hydrate from PostgreSQL → weighted ranking → respond →
 * bookkeeping. A dependency that fails or is slow degrades the answer and is named in {@code
 * degraded}; the call itself still succeeds.
 */
public final class RecallService {

    /**
     * Timeouts and sizes of the recall path. Each stage has its own timeout and all of them share
     * {@code deadlineMs}: a stage is given at most what is left of it, and one that would start
     * with less than {@link #MIN_STAGE_MS} left is skipped ({@code degraded: ["deadline"]}), so
     * under overload no request does work whose answer nobody waits for. Beyond {@code maxInFlight}
     * recalls at once, a recall is answered at once with no memories ({@code degraded:
     * ["overload"]}) instead of queueing.
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

    /** A stage that would have less than this left of the deadline is not started. */
    static final long MIN_STAGE_MS = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<String> SOURCE_FIELDS =
            List.of(
                    "id",
                    "content",
                    "type",
                    "tier",
                    "status",
                    "tags",
                    "importance",
                    "valid_from",
                    "valid_to",
                    "created_at",
                    "embedding_version");

    private final Vertx vertx;
    private final Pool pool;
    private final OpenSearchHttp openSearch;
    private final String alias;
    private final EmbeddingWorker embedder;
    private final QueryExpander heuristic;
    private final Optional<QueryExpander> llm;
    private final Optional<ResultCache> cache;
    private final Optional<RowCache> rows;
    private final Bookkeeper bookkeeper;
    private final Limits limits;
    private final RecallStages stages;
    private final AtomicInteger inFlight = new AtomicInteger();

    public RecallService(
            Vertx vertx,
            Pool pool,
            OpenSearchHttp openSearch,
            String alias,
            EmbeddingWorker embedder,
            QueryExpander heuristic,
            Optional<QueryExpander> llm,
            Optional<ResultCache> cache,
            Optional<RowCache> rows,
            Bookkeeper bookkeeper,
            Limits limits,
            RecallStages stages) {
        this.vertx = vertx;
        this.pool = pool;
        this.openSearch = openSearch;
        this.alias = alias;
        this.embedder = embedder;
        this.heuristic = heuristic;
        this.llm = llm;
        this.cache = cache;
        this.rows = rows;
        this.bookkeeper = bookkeeper;
        this.limits = limits;
        this.stages = stages;
    }

    /** One recall in progress: what was asked, what degraded, what was found. */
    private static final class Call {
        final SearchRequest request;
        final String requestId;
        final Set<String> degraded = new LinkedHashSet<>();
        String rewritten;
        boolean wasRewritten;
        List<String> queries = List.of();
        List<float[]> vectors = List.of();
        final Map<String, Candidate> candidates = new LinkedHashMap<>();
        ResultCache.Lookup cached;

        /** The user's active memories when recall read them from the row cache, else null. */
        Map<String, MemoryRow> userRows;

        final long started = System.nanoTime();
        final long[] stageNanos = RecallStages.newCall();
        final long deadlineNanos;

        Call(SearchRequest request, String requestId, long deadlineMs) {
            this.request = request;
            this.requestId = requestId;
            this.deadlineNanos = started + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        }

        /**
         * The time a stage may take: its own timeout or what is left of the deadline, whichever is
         * less; 0 (and {@code deadline} in degraded) when too little is left to start it.
         */
        long budget(long stageTimeoutMs) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (left < MIN_STAGE_MS) {
                degraded.add("deadline");
                return 0;
            }
            return Math.min(stageTimeoutMs, left);
        }
    }

    private static final class Candidate {
        final String id;

        /** Relevance to the best-matching query, in [-1, 1]; NaN when the index did not answer. */
        double relevance = Double.NaN;

        JsonNode source;
        MemoryRow row;

        Candidate(String id) {
            this.id = id;
        }
    }

    /**
     * One recall's answer, and the time its stages took as a {@code Server-Timing} header value.
     */
    public record Recall(JsonObject body, String serverTiming) {}

    public Future<Recall> search(SearchRequest request, String requestId) {
        Call call = new Call(request, requestId, limits.deadlineMs());
        Future<JsonObject> body;
        if (inFlight.incrementAndGet() > limits.maxInFlight()) {
            inFlight.decrementAndGet();
            body =
                    Future.succeededFuture(
                            skipped(
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

    /** The answer of a recall that did not search, and why. */
    private static JsonObject skipped(String requestId, String why, JsonArray degraded) {
        return new JsonObject()
                .put("memories", new JsonArray())
                .put("request_id", requestId)
                .put("skipped", true)
                .put("explanation", "memory skipped: " + why)
                .put("degraded", degraded);
    }

    private Future<JsonObject> answer(Call call) {
        SearchRequest request = call.request;
        String requestId = call.requestId;
        RecallGate.Verdict verdict = RecallGate.decide(request.query(), request.force());
        if (!verdict.search()) {
            return Future.succeededFuture(skipped(requestId, verdict.reason(), new JsonArray()));
        }
        // While an invalidation of the scope waits for Redis, its cached answers and generation
        // may be older than its memories: neither they nor the row cache are used.
        if (cache.isEmpty() || !cache.get().current(request.scope())) {
            return prepare(call).compose(v -> retrieve(call));
        }
        // The query embedding does not wait for Redis: on a hit its vector is not needed (and the
        // in-process embedding cache keeps it), on a miss it is ready sooner. Only a paid LLM
        // expansion waits to know that the answer is not cached.
        Future<Void> prepared = usesLlm(call) ? null : prepare(call);
        ResultCache c = cache.get();
        return stages.timed(RecallStages.Stage.CACHE, call.stageNanos, () -> cached(c, call))
                .compose(
                        hit -> {
                            if (hit != null) {
                                bookkeep(call.request.scope(), hit.getJsonArray("memories"));
                                return Future.succeededFuture(
                                        hit.put("request_id", call.requestId).put("cached", true));
                            }
                            return (prepared != null ? prepared : prepare(call))
                                    .compose(v -> retrieve(call))
                                    .onSuccess(response -> cacheAfterwards(c, call, response));
                        });
    }

    /**
     * Keeps a complete answer in Redis once it has been written: its copy and the write to Redis
     * are not on its path.
     */
    private void cacheAfterwards(ResultCache c, Call call, JsonObject response) {
        if (call.cached == null || !call.degraded.isEmpty()) {
            return;
        }
        vertx.runOnContext(
                v -> c.put(call.cached, response.copy().put("cached", false)).onFailure(err -> {}));
    }

    /** The cached answer, or null when there is none or Redis cannot tell. */
    private Future<JsonObject> cached(ResultCache c, Call call) {
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

    private boolean usesLlm(Call call) {
        return call.request.multiQuery() && llm.isPresent() && call.request.useLlm();
    }

    /** Rewrite, auxiliary questions and their embedding: everything before the index is asked. */
    private Future<Void> prepare(Call call) {
        QueryRewriter.Rewrite rewrite =
                QueryRewriter.rewrite(call.request.query(), call.request.history());
        call.rewritten = rewrite.query();
        call.wasRewritten = rewrite.rewritten();
        return stages.timed(RecallStages.Stage.EXPAND, call.stageNanos, () -> auxiliary(call))
                .compose(
                        aux -> {
                            List<String> queries = new ArrayList<>();
                            queries.add(call.rewritten);
                            aux.stream()
                                    .filter(q -> !q.equalsIgnoreCase(call.rewritten))
                                    .limit(QueryExpander.MAX_AUXILIARY)
                                    .forEach(queries::add);
                            if (queries.size() > 1 && embedder.busy()) {
                                // Under load the auxiliary questions go first: three embeddings
                                // per request would queue every recall behind them.
                                queries.subList(1, queries.size()).clear();
                                call.degraded.add("multi_query");
                            }
                            call.queries = queries;
                            long budget = call.budget(limits.embedTimeoutMs());
                            if (budget == 0) {
                                return Future.succeededFuture(List.<float[]>of());
                            }
                            return stages.timed(
                                    RecallStages.Stage.EMBED,
                                    call.stageNanos,
                                    () ->
                                            embedder.embed(call.request.scope(), queries, budget)
                                                    .recover(
                                                            err -> {
                                                                call.degraded.add("embedder");
                                                                return Future.succeededFuture(
                                                                        List.of());
                                                            }));
                        })
                .map(
                        vectors -> {
                            call.vectors = vectors;
                            return (Void) null;
                        });
    }

    /** Search, hydrate, rank: the answer from the prepared queries. */
    private Future<JsonObject> retrieve(Call call) {
        return stages.timed(RecallStages.Stage.SEARCH, call.stageNanos, () -> recall(call))
                .compose(
                        v ->
                                stages.timed(
                                        RecallStages.Stage.HYDRATE,
                                        call.stageNanos,
                                        () -> hydrate(call)))
                .compose(
                        v ->
                                stages.timed(
                                        RecallStages.Stage.RANK,
                                        call.stageNanos,
                                        () -> Future.succeededFuture(respond(call))));
    }

    private Future<List<String>> auxiliary(Call call) {
        if (!call.request.multiQuery()) {
            return Future.succeededFuture(List.of());
        }
        long budget =
                llm.isPresent() && call.request.useLlm() ? call.budget(limits.llmTimeoutMs()) : 0;
        if (budget > 0) {
            return Future.fromCompletionStage(
                            llm.get().expand(call.rewritten), vertx.getOrCreateContext())
                    .timeout(budget, TimeUnit.MILLISECONDS)
                    .recover(
                            err -> {
                                call.degraded.add("llm");
                                return Future.fromCompletionStage(
                                        heuristic.expand(call.rewritten),
                                        vertx.getOrCreateContext());
                            });
        }
        return Future.fromCompletionStage(
                heuristic.expand(call.rewritten), vertx.getOrCreateContext());
    }

    /** How many of a query's k-NN and of its BM25 hits may become candidates. */
    private int candidatesFor(Call call, int query) {
        return query == 0 ? Math.max(call.request.limit() * 3, 20) : limits.auxPerQuery() * 3;
    }

    /**
     * The k-NN search of every query asks for at least this many of the user's nearest memories,
     * more than become candidates: their cosines also score the BM25 hits, so no third search (or
     * stored vector) is needed for those. A BM25 hit outside a full window is less similar than all
     * of it and gets the window's lowest cosine, an upper bound of its own.
     */
    static final int COSINE_WINDOW = 64;

    /** How many hits a query's k-NN search asks for. */
    private int knnWindow(Call call, int query) {
        return Math.max(candidatesFor(call, query), COSINE_WINDOW);
    }

    private MemoryQuery query(Call call) {
        SearchRequest r = call.request;
        return MemoryQuery.forScope(r.scope())
                .types(r.types())
                .tiers(r.tiers())
                .tags(r.tags())
                .excludeTags(r.excludeTags())
                .session(r.sessionId())
                .validBetween(r.from(), r.to())
                .includeHistory(r.includeHistory())
                .embeddingVersion(call.vectors.isEmpty() ? null : embedder.version());
    }

    private Future<Void> recall(Call call) {
        long budget = call.budget(limits.searchTimeoutMs());
        if (budget == 0) {
            return Future.succeededFuture();
        }
        MemoryQuery q = query(call);
        List<JsonNode> lines = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        for (int i = 0; i < call.queries.size(); i++) {
            int k = candidatesFor(call, i);
            ObjectNode header =
                    JSON.createObjectNode().put("index", alias).put("routing", q.routing());
            SearchRequest.Retrieval mode = call.request.retrieval();
            // Ids and scores only: PostgreSQL hydrates, so no stored document is read here. The
            // k-NN window runs in BM25-only mode too: it scores the BM25 hits.
            if (!call.vectors.isEmpty()) {
                add(
                        lines,
                        kinds,
                        header,
                        q.knn(call.vectors.get(i), knnWindow(call, i)),
                        "knn:" + i);
            }
            // Without a query vector BM25 is all there is, whatever was asked.
            if (mode.bm25() || call.vectors.isEmpty()) {
                add(
                        lines,
                        kinds,
                        header,
                        q.bm25(Text.keywords(call.queries.get(i)), k),
                        "bm25:" + i);
            }
        }
        return openSearch
                .sendNdjson("/_msearch?filter_path=" + MemoryQuery.MSEARCH_IDS_AND_SCORES, lines)
                .timeout(budget, TimeUnit.MILLISECONDS)
                .compose(
                        response -> {
                            if (!response.ok()) {
                                return Future.failedFuture("msearch " + response.status());
                            }
                            fuse(call, kinds, response.body().path("responses"));
                            return Future.<Void>succeededFuture();
                        })
                .recover(
                        err -> {
                            call.degraded.add("opensearch");
                            return fallbackFromPostgres(call);
                        });
    }

    private static void add(
            List<JsonNode> lines,
            List<String> kinds,
            ObjectNode header,
            ObjectNode search,
            String kind) {
        lines.add(header);
        lines.add(MemoryQuery.idsOnly(search));
        kinds.add(kind);
    }

    /**
     * Merges the k-NN and BM25 answers of every query. Candidates are the main query's k-NN and
     * BM25 hits and the best few of each auxiliary query (by RRF); a candidate's relevance is, per
     * query, the mean of its cosine similarity and its BM25 score divided by the query's best BM25
     * score (a leg that did not run counts as absent, not as zero), and its best over all queries.
     * Cosine finds paraphrases, BM25 the exact names and rare words a question quotes; either alone
     * misses what the other finds.
     */
    private void fuse(Call call, List<String> kinds, JsonNode responses) {
        int queries = call.queries.size();
        for (int qi = 0; qi < queries; qi++) {
            int knnTake = call.request.retrieval().knn() ? candidatesFor(call, qi) : 0;
            int window = knnWindow(call, qi);
            int knnSeen = 0;
            double lowestCos = Double.NaN;
            List<String> knnIds = new ArrayList<>();
            List<String> bm25Ids = new ArrayList<>();
            Set<String> hits = new LinkedHashSet<>();
            Map<String, Double> cosines = new HashMap<>();
            Map<String, Double> bm25Scores = new LinkedHashMap<>();
            boolean bm25Ran = false;
            double bestBm25 = 0;
            for (int r = 0; r < kinds.size(); r++) {
                String kind = kinds.get(r);
                if (!kind.endsWith(":" + qi)) {
                    continue;
                }
                JsonNode resp = responses.path(r);
                if (resp.has("error")) {
                    call.degraded.add("opensearch");
                    continue;
                }
                bm25Ran |= kind.startsWith("bm25");
                for (JsonNode hit : resp.path("hits").path("hits")) {
                    String id = MemoryQuery.hitId(hit);
                    double score = hit.path("_score").asDouble();
                    if (kind.startsWith("bm25")) {
                        hits.add(id);
                        bm25Ids.add(id);
                        bm25Scores.put(id, score);
                        bestBm25 = Math.max(bestBm25, score);
                    } else {
                        // The k-NN search scores (1 + cos) / 2, best first.
                        lowestCos = 2 * score - 1;
                        cosines.put(id, lowestCos);
                        if (knnSeen++ < knnTake) {
                            hits.add(id);
                            knnIds.add(id);
                        }
                    }
                }
            }
            Iterable<String> taken =
                    qi == 0
                            ? hits
                            : ReciprocalRankFusion.fuse(
                                            List.of(knnIds, bm25Ids),
                                            ReciprocalRankFusion.DEFAULT_K)
                                    .keySet()
                                    .stream()
                                    .limit(limits.auxPerQuery())
                                    .toList();
            for (String id : taken) {
                Candidate c = call.candidates.computeIfAbsent(id, Candidate::new);
                double cos = cosines.getOrDefault(id, knnSeen >= window ? lowestCos : Double.NaN);
                double lexical =
                        bm25Ran && bestBm25 > 0
                                ? bm25Scores.getOrDefault(id, 0.0) / bestBm25
                                : Double.NaN;
                double relevance =
                        Double.isNaN(cos)
                                ? lexical
                                : Double.isNaN(lexical) ? cos : (cos + lexical) / 2;
                if (!Double.isNaN(relevance)
                        && (Double.isNaN(c.relevance) || relevance > c.relevance)) {
                    c.relevance = relevance;
                }
            }
        }
    }

    /**
     * Without the index: the user's most recent memories, scored by shared words with the query.
     */
    private Future<Void> fallbackFromPostgres(Call call) {
        long budget = call.budget(limits.hydrateTimeoutMs());
        if (budget == 0) {
            return Future.succeededFuture();
        }
        Scope s = call.request.scope();
        SearchRequest q = call.request;
        StringBuilder sql =
                new StringBuilder(
                        "select id from memories where tenant_id = $1 and project_id = $2 and environment = $3"
                                + " and user_id = $4 and status = 'active'");
        Tuple args = Tuple.of(s.tenantId(), s.projectId(), s.environment(), s.userId());
        // The request's filters hold without the index too.
        if (!q.types().isEmpty()) {
            args.addArrayOfString(q.types().toArray(String[]::new));
            sql.append(" and type = any($").append(args.size()).append(")");
        }
        if (!q.tiers().isEmpty()) {
            args.addArrayOfString(q.tiers().toArray(String[]::new));
            sql.append(" and tier = any($").append(args.size()).append(")");
        }
        if (!q.tags().isEmpty()) {
            args.addArrayOfString(q.tags().toArray(String[]::new));
            sql.append(" and tags @> $").append(args.size());
        }
        if (!q.excludeTags().isEmpty()) {
            args.addArrayOfString(q.excludeTags().toArray(String[]::new));
            sql.append(" and not (tags && $").append(args.size()).append(")");
        }
        if (q.sessionId() != null) {
            args.addString(q.sessionId());
            sql.append(" and session_id = $").append(args.size());
        }
        if (q.from() != null) {
            args.addOffsetDateTime(q.from().atOffset(java.time.ZoneOffset.UTC));
            sql.append(" and valid_from >= $").append(args.size());
        }
        if (q.to() != null) {
            args.addOffsetDateTime(q.to().atOffset(java.time.ZoneOffset.UTC));
            sql.append(" and valid_from < $").append(args.size());
        }
        sql.append(" order by coalesce(last_accessed_at, created_at) desc limit 200");
        return pool.preparedQuery(sql.toString())
                .execute(args)
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        rows -> {
                            for (Row r : rows) {
                                call.candidates.computeIfAbsent(
                                        r.getUUID("id").toString(), Candidate::new);
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("postgres");
                            return Future.succeededFuture();
                        });
    }

    private Future<Void> hydrate(Call call) {
        if (call.candidates.isEmpty()) {
            return Future.succeededFuture();
        }
        long budget = call.budget(limits.hydrateTimeoutMs());
        if (budget == 0) {
            // Nothing unconfirmed is returned.
            call.candidates.clear();
            return Future.succeededFuture();
        }
        Scope s = call.request.scope();
        // Kept memories stand for PostgreSQL's only at the generation just read from Redis, and
        // only for requests whose filters they answer (not the metadata filter, not history).
        String generation =
                rows.isPresent()
                                && call.cached != null
                                && call.request.metadataFilter() == null
                                && !call.request.includeHistory()
                        ? call.cached.generation()
                        : null;
        if (generation != null) {
            Map<String, MemoryRow> active = rows.get().get(s, generation);
            if (active != null) {
                call.userRows = active;
                call.candidates.values().forEach(c -> c.row = active.get(c.id));
                // Not among the user's active memories at this generation: PostgreSQL would not
                // confirm it either.
                call.candidates.values().removeIf(c -> c.row == null);
                return Future.succeededFuture();
            }
        }
        UUID[] ids = call.candidates.keySet().stream().map(UUID::fromString).toArray(UUID[]::new);
        StringBuilder sql =
                new StringBuilder(
                        "select "
                                + MemoryRow.COLUMNS
                                + " from memories where id = any($1) and tenant_id = $2"
                                + " and project_id = $3 and environment = $4 and user_id = $5");
        if (!call.request.includeHistory()) {
            sql.append(" and status = 'active'");
        }
        Tuple args = Tuple.of(ids, s.tenantId(), s.projectId(), s.environment(), s.userId());
        if (call.request.metadataFilter() != null) {
            sql.append(" and metadata @> $6");
            args.addJsonObject(call.request.metadataFilter());
        }
        return pool.preparedQuery(sql.toString())
                .execute(args)
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        found -> {
                            for (Row r : found) {
                                MemoryRow row = MemoryRow.of(r);
                                call.candidates.get(row.id()).row = row;
                            }
                            // Only what the source of truth confirms (scope, status, metadata) is
                            // returned.
                            call.candidates.values().removeIf(c -> c.row == null);
                            if (generation != null) {
                                keepRows(s, generation);
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("postgres");
                            if (call.request.metadataFilter() != null) {
                                // The metadata filter cannot be checked without PostgreSQL.
                                call.candidates.clear();
                                return Future.succeededFuture();
                            }
                            return copiesFromIndex(call);
                        });
    }

    /**
     * Reads the user's active memories into the row cache, off the response path (the answer that
     * asked for it does not wait): the user's next recalls at this generation read nothing.
     */
    private void keepRows(Scope s, String generation) {
        RowCache cache = rows.get();
        Long ticket = cache.startLoading(s);
        if (ticket == null) {
            return;
        }
        pool.preparedQuery(
                        "select "
                                + MemoryRow.COLUMNS
                                + " from memories where tenant_id = $1 and project_id = $2"
                                + " and environment = $3 and user_id = $4 and status = 'active'"
                                + " limit $5")
                .execute(
                        Tuple.of(
                                s.tenantId(),
                                s.projectId(),
                                s.environment(),
                                s.userId(),
                                cache.readLimit()))
                .timeout(limits.hydrateTimeoutMs(), TimeUnit.MILLISECONDS)
                .onComplete(
                        ar -> {
                            List<MemoryRow> active = null;
                            if (ar.succeeded()) {
                                active = new ArrayList<>();
                                for (Row r : ar.result()) {
                                    active.add(MemoryRow.of(r));
                                }
                            }
                            cache.loaded(s, ticket, generation, active);
                        });
    }

    /**
     * Without PostgreSQL: the index's copy of the candidates (the searches read none, to stay
     * cheap). A candidate the index does not return either is left out.
     */
    private Future<Void> copiesFromIndex(Call call) {
        long budget = call.budget(limits.searchTimeoutMs());
        if (budget == 0) {
            call.candidates.clear();
            return Future.succeededFuture();
        }
        MemoryQuery q = query(call);
        ObjectNode body = q.ids(new ArrayList<>(call.candidates.keySet()));
        ArrayNode fields = body.putArray("_source");
        SOURCE_FIELDS.forEach(fields::add);
        return openSearch
                .send("POST", "/" + alias + "/_search?routing=" + q.routing(), body)
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        response -> {
                            if (!response.ok()) {
                                throw new IllegalStateException("search " + response.status());
                            }
                            for (JsonNode hit : response.body().path("hits").path("hits")) {
                                Candidate c = call.candidates.get(MemoryQuery.hitId(hit));
                                if (c != null) {
                                    c.source = hit.path("_source");
                                }
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("opensearch");
                            return Future.succeededFuture();
                        })
                .map(
                        v -> {
                            call.candidates.values().removeIf(c -> c.source == null);
                            return (Void) null;
                        });
    }

    private JsonObject respond(Call call) {
        Instant now = Instant.now();
        Set<String> queryWords = Text.contentWords(call.rewritten);
        List<RankCandidate> ranked = new ArrayList<>();
        Map<String, Candidate> byId = call.candidates;
        for (Candidate c : byId.values()) {
            double semantic =
                    Double.isNaN(c.relevance) ? overlap(queryWords, content(c)) : c.relevance;
            if (c.row != null) {
                MemoryRow r = c.row;
                ranked.add(
                        new RankCandidate(
                                c.id,
                                semantic,
                                r.validFrom(),
                                r.importance(),
                                r.usageCount(),
                                r.quality(),
                                r.consistency(),
                                r.decay(),
                                r.contradictedBy()));
            } else {
                JsonNode src = c.source;
                ranked.add(
                        new RankCandidate(
                                c.id,
                                semantic,
                                Instant.parse(src.path("valid_from").asText()),
                                src.path("importance").asDouble(),
                                0,
                                0.5,
                                1,
                                1));
            }
        }
        List<Picked> picked =
                collapse(
                        Ranker.rank(ranked, now, call.request.ranking(), ranked.size()),
                        byId,
                        call.request.limit(),
                        call.userRows);
        JsonArray memories = new JsonArray();
        List<UUID> returned = new ArrayList<>();
        List<Ranked> top = new ArrayList<>(picked.size());
        for (Picked p : picked) {
            Ranked r = p.ranked();
            Candidate c = byId.get(r.candidate().id());
            JsonObject m = memory(c, r);
            if (p.context() != null) {
                // The excerpt the fact was read from: its words, and the turns both tell.
                m.put("context", content(p.context()));
                m.put("context_id", p.context().id);
                m.put("source_turn_ids", new JsonArray(p.sourceTurnIds()));
                returned.add(UUID.fromString(p.context().id));
            }
            memories.add(m);
            returned.add(UUID.fromString(c.id));
            top.add(r);
        }
        bookkeeper.recalled(call.request.scope(), returned);
        return new JsonObject()
                .put("memories", memories)
                .put("request_id", call.requestId)
                .put("skipped", false)
                .put("explanation", explanation(call, top))
                .put("degraded", new JsonArray(new ArrayList<>(call.degraded)))
                .put("queries", new JsonArray(call.queries));
    }

    /** The answer's memories ({@link Collapse}), each with the excerpt it takes along. */
    private static List<Picked> collapse(
            List<Ranked> ranked,
            Map<String, Candidate> byId,
            int limit,
            Map<String, MemoryRow> userRows) {
        Map<String, Ranked> byIdRanked = new HashMap<>();
        List<Collapse.Item> items = new ArrayList<>(ranked.size());
        for (Ranked r : ranked) {
            Candidate c = byId.get(r.candidate().id());
            byIdRanked.put(c.id, r);
            boolean excerpt = c.row != null && c.row.tags().contains(Excerpts.TAG);
            items.add(new Collapse.Item(c.id, sourceTurns(c), excerpt));
        }
        List<Picked> out = new ArrayList<>(limit);
        // Built on the first fact whose excerpt was not recalled, not on every recall.
        java.util.concurrent.atomic.AtomicReference<Map<String, MemoryRow>> excerptByLastTurn =
                new java.util.concurrent.atomic.AtomicReference<>();
        for (Collapse.Pick p :
                Collapse.of(
                        items,
                        limit,
                        fact -> {
                            if (excerptByLastTurn.get() == null) {
                                excerptByLastTurn.set(excerptsByLastTurn(userRows));
                            }
                            List<String> turns = fact.sourceTurnIds();
                            MemoryRow e = excerptByLastTurn.get().get(turns.get(turns.size() - 1));
                            return e == null
                                    ? null
                                    : new Collapse.Item(e.id(), e.sourceTurnIds(), true);
                        })) {
            Candidate context = null;
            if (p.contextId() != null) {
                context = byId.get(p.contextId());
                if (context == null) {
                    context = new Candidate(p.contextId());
                    context.row = userRows.get(p.contextId());
                }
            }
            out.add(new Picked(byIdRanked.get(p.id()), context, p.sourceTurnIds()));
        }
        return out;
    }

    /**
     * The user's excerpts by their last turn, from the rows recall holds for the user (none when it
     * read them from PostgreSQL): where a fact whose excerpt was not recalled finds it.
     */
    private static Map<String, MemoryRow> excerptsByLastTurn(Map<String, MemoryRow> userRows) {
        if (userRows == null) {
            return Map.of();
        }
        Map<String, MemoryRow> out = new HashMap<>();
        for (MemoryRow r : userRows.values()) {
            List<String> turns = r.sourceTurnIds();
            if (!turns.isEmpty() && r.tags().contains(Excerpts.TAG)) {
                out.putIfAbsent(turns.get(turns.size() - 1), r);
            }
        }
        return out;
    }

    /** A memory of the answer, the excerpt it takes along (or null), and the turns both tell. */
    private record Picked(Ranked ranked, Candidate context, List<String> sourceTurnIds) {}

    private static List<String> sourceTurns(Candidate c) {
        return c.row == null ? List.of() : c.row.sourceTurnIds();
    }

    private static String content(Candidate c) {
        return c.row != null
                ? c.row.content()
                : c.source == null ? "" : c.source.path("content").asText();
    }

    private static double overlap(Set<String> query, String content) {
        if (query.isEmpty()) {
            return 0;
        }
        return Text.containment(query, Text.contentWords(content)) * 0.5;
    }

    private static JsonObject memory(Candidate c, Ranked r) {
        ScoreBreakdown b = r.breakdown();
        JsonObject breakdown =
                new JsonObject()
                        .put("semantic", round(b.semantic()))
                        .put("recency", round(b.recency()))
                        .put("importance", round(b.importance()))
                        .put("usage", round(b.usage()))
                        .put("quality", round(b.quality()))
                        .put("consistency", round(b.consistency()))
                        .put("decay", round(b.decay()));
        JsonObject m =
                new JsonObject()
                        .put("id", c.id)
                        .put("score", round(r.score()))
                        .put("score_breakdown", breakdown);
        if (c.row != null) {
            MemoryRow row = c.row;
            m.put("content", row.content())
                    .put("type", row.type())
                    .put("tier", row.tier())
                    .put("status", row.status())
                    .put("tags", new JsonArray(row.tags()))
                    .put("source_turn_ids", new JsonArray(row.sourceTurnIds()))
                    .put("created_at", String.valueOf(row.createdAt()))
                    .put("valid_from", String.valueOf(row.validFrom()))
                    .put("valid_to", row.validTo() == null ? null : row.validTo().toString())
                    .put("embedding_version", row.embeddingVersion())
                    .put("current", row.contradictedBy() == null && "active".equals(row.status()))
                    .put("contradicted_by", row.contradictedBy());
        } else {
            JsonNode s = c.source;
            JsonArray tags = new JsonArray();
            s.path("tags").forEach(t -> tags.add(t.asText()));
            m.put("content", s.path("content").asText())
                    .put("type", s.path("type").asText())
                    .put("tier", s.path("tier").asText())
                    .put("status", s.path("status").asText())
                    .put("tags", tags)
                    .put("source_turn_ids", new JsonArray())
                    .put("created_at", s.path("created_at").asText())
                    .put("valid_from", s.path("valid_from").asText())
                    .put("valid_to", s.hasNonNull("valid_to") ? s.path("valid_to").asText() : null)
                    .put("embedding_version", s.path("embedding_version").asText());
        }
        return m;
    }

    private static String explanation(Call call, List<Ranked> top) {
        StringBuilder e = new StringBuilder();
        e.append(call.queries.size()).append(call.queries.size() == 1 ? " query" : " queries");
        if (call.wasRewritten) {
            e.append(" (rewritten from the conversation)");
        }
        SearchRequest.Retrieval mode = call.request.retrieval();
        e.append(
                call.vectors.isEmpty() || mode == SearchRequest.Retrieval.BM25
                        ? ", BM25 only"
                        : mode == SearchRequest.Retrieval.DENSE
                                ? ", k-NN only"
                                : ", k-NN + BM25 (relevance: mean of cosine and relative BM25)");
        e.append("; ")
                .append(call.candidates.size())
                .append(" candidates, ")
                .append(top.size())
                .append(" returned");
        if (!top.isEmpty()) {
            ScoreBreakdown b = top.get(0).breakdown();
            e.append("; best: semantic ")
                    .append(round(b.semantic()))
                    .append(", recency ")
                    .append(round(b.recency()))
                    .append(", importance ")
                    .append(round(b.importance()));
        }
        if (!call.degraded.isEmpty()) {
            e.append("; degraded: ").append(String.join(", ", call.degraded));
        }
        return e.toString();
    }

    private void bookkeep(Scope scope, JsonArray memories) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            ids.add(UUID.fromString(memories.getJsonObject(i).getString("id")));
        }
        bookkeeper.recalled(scope, ids);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
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
