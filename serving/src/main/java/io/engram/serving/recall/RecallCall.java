package io.engram.serving.recall;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.query.agentic.QuestionTime;
import io.engram.query.agentic.RetrievalPlanner;
import io.engram.store.opensearch.MemoryQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One recall in progress, as its stages pass it on: what was asked, the queries and vectors, the
 * candidates found and hydrated, what degraded, and the deadline they all share.
 */
final class RecallCall {

    /** A stage that would have less than this left of the deadline is not started. */
    static final long MIN_STAGE_MS = 10;

    final SearchRequest request;
    final String requestId;
    final Set<String> degraded = new LinkedHashSet<>();
    String rewritten;
    boolean wasRewritten;

    /** Every query issued so far, in order (for the answer). */
    List<String> queries = List.of();

    /** The first hop's query vectors (none: BM25 only). */
    List<float[]> vectors = List.of();

    /** The first hop's queries and their part in it. */
    List<Query> firstHop = List.of();

    /** The strategy that runs, and the planner that chose it. */
    RetrievalPlanner.Route route;

    String planner = "heuristic";

    /** The time the question names, when the request set no window of its own. */
    QuestionTime.Window window;

    /** What each search round asked and found. */
    final List<HopRecord> hops = new ArrayList<>();

    final Map<String, Candidate> candidates = new LinkedHashMap<>();

    /**
     * The excerpts the question's own k-NN search over excerpts found, nearest first (empty unless
     * the model's excerpts have vectors): fused into the answer's order at the end.
     */
    final List<String> excerptRanking = new java.util.ArrayList<>();

    ResultCache.Lookup cached;

    /** The user's active memories when recall read them from the row cache, else null. */
    Map<String, MemoryRow> userRows;

    final long started = System.nanoTime();
    final long[] stageNanos = RecallStages.newCall();
    final long deadlineNanos;

    RecallCall(SearchRequest request, String requestId, long deadlineMs) {
        this.request = request;
        this.requestId = requestId;
        this.deadlineNanos = started + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
    }

    /** What is left of the deadline, in milliseconds. */
    long millisLeft() {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
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

    /**
     * The search of this recall's memories: its scope and filters, and the embedding version of its
     * vectors (none without them).
     */
    MemoryQuery memoryQuery(String embeddingVersion) {
        SearchRequest r = request;
        return MemoryQuery.forScope(r.scope())
                .types(r.types())
                .tiers(r.tiers())
                .tags(r.tags())
                .excludeTags(r.excludeTags())
                .session(r.sessionId())
                .validBetween(r.from(), r.to())
                .includeHistory(r.includeHistory())
                .embeddingVersion(vectors.isEmpty() ? null : embeddingVersion);
    }

    /** What a query is to its recall: how many of its hits become candidates, at what weight. */
    enum Role {
        /** The question (rewritten from the conversation). */
        MAIN,
        /** An auxiliary question (multi-query): its best few hits. */
        AUXILIARY,
        /** A part of a split question. */
        PART,
        /** A later hop of a chain. */
        FOLLOW
    }

    /** One query of a hop. */
    record Query(String text, Role role, int hop) {}

    /** One search round: its queries, how many new candidates it found, the verdict, its time. */
    record HopRecord(
            int hop, List<String> queries, int newCandidates, String verdict, long nanos) {}

    /** A memory found by a search: its relevance, then its row (or the index's copy of it). */
    static final class Candidate {
        final String id;

        /** Relevance to the best-matching query, in [-1, 1]; NaN when the index did not answer. */
        double relevance = Double.NaN;

        JsonNode source;
        MemoryRow row;

        /** The hop that found it first. */
        int hop = 1;

        Candidate(String id) {
            this.id = id;
        }

        /** Its words, from the row or the index's copy. */
        String content() {
            return row != null
                    ? row.content()
                    : source == null ? "" : source.path("content").asText();
        }

        List<String> sourceTurnIds() {
            return row == null ? List.of() : row.sourceTurnIds();
        }
    }
}
