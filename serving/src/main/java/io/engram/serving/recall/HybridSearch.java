package io.engram.serving.recall;

import io.engram.embedding.ModelSpec;
import io.engram.extraction.Excerpts;
import io.engram.memory.Scope;
import io.engram.query.AttributeCues;
import io.engram.ranking.HybridFusion;
import io.engram.serving.store.OpenSearchReads;
import io.engram.store.opensearch.MemoryQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch.core.msearch.MultiSearchResponseItem;
import org.opensearch.client.opensearch.core.msearch.MultisearchBody;
import org.opensearch.client.opensearch.core.msearch.MultisearchHeader;
import org.opensearch.client.opensearch.core.msearch.RequestItem;
import org.opensearch.client.opensearch.core.search.Hit;

/**
 * The search of a recall: one multi-search with a k-NN and a BM25 search per query (ids and scores
 * only), fused into candidates by {@link HybridFusion}. Without the index, the user's most recent
 * memories from PostgreSQL, under the same filters.
 */
final class HybridSearch {

    /**
     * The k-NN search of every query asks for at least this many of the user's nearest memories,
     * more than become candidates: their cosines also score the BM25 hits, so no third search (or
     * stored vector) is needed for those.
     */
    static final int COSINE_WINDOW = 64;

    private final Pool pool;
    private final OpenSearchReads idsAndScores;
    private final String alias;
    private final String embeddingVersion;
    private final ModelSpec scale;
    private final RecallService.Limits limits;

    HybridSearch(
            Pool pool,
            OpenSearchReads openSearch,
            String alias,
            String embeddingVersion,
            RecallService.Limits limits) {
        this.pool = pool;
        this.idsAndScores = openSearch.withOptions(MemoryQuery.IDS_AND_SCORES_ONLY);
        this.alias = alias;
        this.embeddingVersion = embeddingVersion;
        this.scale = ModelSpec.scaleOf(embeddingVersion);
        this.limits = limits;
    }

    /**
     * The weight of a later hop's relevance against the first hop's: the question's own best
     * memories stay first, a follow-up's best come right after them.
     */
    static final double FOLLOW_WEIGHT = 0.75;

    /** Fills the call's candidates with the first hop's relevance. */
    Future<Void> search(RecallCall call) {
        return search(call, call.firstHop, call.vectors);
    }

    /**
     * Adds the candidates of a batch of queries (one hop) with their relevance; the first hop falls
     * back to PostgreSQL without the index, a later one only degrades.
     */
    Future<Void> search(RecallCall call, List<RecallCall.Query> batch, List<float[]> vectors) {
        long budget = call.budget(limits.searchTimeoutMs());
        if (budget == 0 || batch.isEmpty()) {
            return Future.succeededFuture();
        }
        boolean first = batch.get(0).hop() == 1;
        MemoryQuery q = call.memoryQuery(embeddingVersion);
        // The k-NN search of facts; excerpts with vectors have a search of their own below, and
        // stay scored by their words here, as excerpts without vectors are.
        MemoryQuery facts =
                scale.excerptVectors()
                        ? call.memoryQuery(embeddingVersion).excludeTags(List.of(Excerpts.TAG))
                        : q;
        MultisearchHeader header = MultisearchHeader.of(h -> h.index(alias).routing(q.routing()));
        List<RequestItem> searches = new ArrayList<>();
        List<Leg> legs = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            RecallCall.Query query = batch.get(i);
            // Ids and scores only: PostgreSQL hydrates, so no stored document is read here. The
            // k-NN window runs in BM25-only mode too: it scores the BM25 hits.
            if (!vectors.isEmpty()) {
                int window = knnWindow(call, query);
                searches.add(
                        item(
                                header,
                                MemoryQuery.idsOnly(facts.knn(vectors.get(i), window), window)));
                legs.add(new Leg(i, Leg.Kind.KNN));
            }
            // The question's excerpts by their turns' vectors, when they have them: a ranking of
            // its own, fused into the answer at the end (RecallAnswer).
            if (!vectors.isEmpty()
                    && scale.excerptVectors()
                    && query.hop() == 1
                    && query.role() != RecallCall.Role.AUXILIARY) {
                searches.add(
                        item(
                                header,
                                MemoryQuery.idsOnly(
                                        call.memoryQuery(embeddingVersion)
                                                .tags(List.of(Excerpts.TAG))
                                                .knn(vectors.get(i), EXCERPT_KNN),
                                        EXCERPT_KNN)));
                legs.add(new Leg(i, Leg.Kind.EXCERPT_KNN));
            }
            // Without a query vector BM25 is all there is, whatever was asked.
            if (call.request.retrieval().bm25() || vectors.isEmpty()) {
                // Tags from doc values: an excerpt has no vector, so no cosine to bound.
                searches.add(
                        item(
                                header,
                                MemoryQuery.idsOnly(
                                        q.bm25(AttributeCues.keywords(query.text())),
                                        candidatesFor(call, query),
                                        "tags")));
                legs.add(new Leg(i, Leg.Kind.BM25));
            }
        }
        return idsAndScores
                .call(c -> c.msearch(m -> m.searches(searches), Void.class))
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        response -> {
                            fuse(call, batch, legs, response.responses());
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("opensearch");
                            return first ? fallbackFromPostgres(call) : Future.succeededFuture();
                        });
    }

    private static RequestItem item(MultisearchHeader header, MultisearchBody body) {
        return RequestItem.of(r -> r.header(header).body(body));
    }

    /** One search of the multi-search: which query, and what it searches. */
    private record Leg(int query, Kind kind) {
        enum Kind {
            KNN,
            BM25,
            EXCERPT_KNN
        }

        boolean knn() {
            return kind == Kind.KNN;
        }
    }

    /** How many excerpts the excerpt-only k-NN search ranks. */
    static final int EXCERPT_KNN = 30;

    /** How many of a query's k-NN and of its BM25 hits may become candidates. */
    private int candidatesFor(RecallCall call, RecallCall.Query query) {
        int limit = call.request.limit();
        return switch (query.role()) {
            case MAIN -> Math.max(limit * 3, 20);
            case PART -> Math.max(limit * 2, 10);
            case FOLLOW -> Math.max(limit, 5);
            case AUXILIARY -> limits.auxPerQuery() * 3;
        };
    }

    /** How many hits a query's k-NN search asks for. */
    private int knnWindow(RecallCall call, RecallCall.Query query) {
        return Math.max(candidatesFor(call, query), COSINE_WINDOW);
    }

    private void fuse(
            RecallCall call,
            List<RecallCall.Query> batch,
            List<Leg> legs,
            List<MultiSearchResponseItem<Void>> responses) {
        List<HybridFusion.QueryHits> queries = new ArrayList<>();
        for (int qi = 0; qi < batch.size(); qi++) {
            RecallCall.Query query = batch.get(qi);
            List<HybridFusion.Hit> knn = null;
            List<HybridFusion.Hit> bm25 = null;
            for (int r = 0; r < legs.size(); r++) {
                Leg leg = legs.get(r);
                if (leg.query() != qi) {
                    continue;
                }
                MultiSearchResponseItem<Void> resp = r < responses.size() ? responses.get(r) : null;
                if (resp == null || !resp.isResult()) {
                    call.degraded.add("opensearch");
                    continue;
                }
                if (leg.kind() == Leg.Kind.EXCERPT_KNN) {
                    excerpts(call, query, MemoryQuery.hits(resp.result()));
                    continue;
                }
                List<HybridFusion.Hit> hits = new ArrayList<>();
                for (Hit<Void> hit : MemoryQuery.hits(resp.result())) {
                    double score = hit.score() == null ? 0 : hit.score();
                    if (leg.knn()) {
                        // The index scores (1 + cosine) / 2; fusion reads the model's similarity.
                        score = (1 + scale.similarity(2 * score - 1)) / 2;
                    }
                    hits.add(
                            new HybridFusion.Hit(
                                    MemoryQuery.hitId(hit), score, !leg.knn() && isExcerpt(hit)));
                }
                if (leg.knn()) {
                    knn = hits;
                } else {
                    bm25 = hits;
                }
            }
            int knnTake = call.request.retrieval().knn() ? candidatesFor(call, query) : 0;
            queries.add(
                    new HybridFusion.QueryHits(
                            knn,
                            bm25,
                            knnTake,
                            knnWindow(call, query),
                            query.role() == RecallCall.Role.AUXILIARY));
        }
        int hop = batch.get(0).hop();
        double weight = Math.pow(FOLLOW_WEIGHT, hop - 1);
        HybridFusion.fuse(queries, limits.auxPerQuery())
                .forEach(
                        (id, fused) -> {
                            double relevance = fused > 0 ? fused * weight : fused;
                            RecallCall.Candidate c = call.candidates.get(id);
                            if (c == null) {
                                c = new RecallCall.Candidate(id);
                                c.hop = hop;
                                call.candidates.put(id, c);
                            }
                            if (!Double.isNaN(relevance)
                                    && (Double.isNaN(c.relevance) || relevance > c.relevance)) {
                                c.relevance = relevance;
                            }
                        });
    }

    /**
     * The excerpt ranking of a question: kept for the final fusion, and each excerpt a candidate
     * (one the main search missed is as relevant as its similarity with no word in common).
     */
    private void excerpts(RecallCall call, RecallCall.Query query, List<Hit<Void>> hits) {
        boolean lexical = call.request.retrieval().bm25();
        for (Hit<Void> hit : hits) {
            String id = MemoryQuery.hitId(hit);
            double cos = scale.similarity(2 * (hit.score() == null ? 0 : hit.score()) - 1);
            if (!call.excerptRanking.contains(id)) {
                call.excerptRanking.add(id);
            }
            RecallCall.Candidate c = call.candidates.get(id);
            if (c == null) {
                c = new RecallCall.Candidate(id);
                c.hop = query.hop();
                call.candidates.put(id, c);
            }
            if (Double.isNaN(c.relevance)) {
                c.relevance = lexical ? cos / 2 : cos;
            }
        }
    }

    private static boolean isExcerpt(Hit<Void> hit) {
        JsonData tags = hit.fields().get("tags");
        if (tags == null) {
            return false;
        }
        for (JsonValue tag : tags.toJson().asJsonArray()) {
            if (tag instanceof JsonString s && Excerpts.TAG.equals(s.getString())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Without the index: the user's most recent memories, scored later by shared words with the
     * query.
     */
    private Future<Void> fallbackFromPostgres(RecallCall call) {
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
            args.addOffsetDateTime(q.from().atOffset(ZoneOffset.UTC));
            sql.append(" and valid_from >= $").append(args.size());
        }
        if (q.to() != null) {
            args.addOffsetDateTime(q.to().atOffset(ZoneOffset.UTC));
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
                                        r.getUUID("id").toString(), RecallCall.Candidate::new);
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("postgres");
                            return Future.succeededFuture();
                        });
    }
}
