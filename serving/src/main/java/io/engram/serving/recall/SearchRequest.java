package io.engram.serving.recall;

import io.engram.memory.Scope;
import io.engram.query.QueryRewriter.HistoryMessage;
import io.engram.query.agentic.RetrievalStrategy;
import io.engram.ranking.RankingSettings;
import io.engram.ranking.RankingWeights;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A validated {@code POST /v1/memories/search} body, every knob within the server's caps. */
public record SearchRequest(
        Scope scope,
        String query,
        int limit,
        List<HistoryMessage> history,
        boolean force,
        boolean includeHistory,
        boolean multiQuery,
        boolean useLlm,
        Retrieval retrieval,
        RetrievalStrategy strategy,
        RankingSettings ranking,
        List<String> types,
        List<String> tiers,
        List<String> tags,
        List<String> excludeTags,
        String sessionId,
        Instant from,
        Instant to,
        JsonObject metadataFilter,
        String canonical) {

    /** Which searches find candidates: k-NN and BM25 fused (default), or one of them alone. */
    public enum Retrieval {
        HYBRID,
        DENSE,
        BM25;

        public boolean knn() {
            return this != BM25;
        }

        public boolean bm25() {
            return this != DENSE;
        }
    }

    public static final int MAX_QUERY_CHARS = 4000;
    public static final int MAX_LIMIT = 50;
    public static final Set<String> FIELDS =
            Set.of(
                    "user_id",
                    "project_id",
                    "query",
                    "limit",
                    "history",
                    "force",
                    "include_history",
                    "multi_query",
                    "use_llm",
                    "retrieval",
                    "strategy",
                    "threshold",
                    "importance_floor",
                    "weights",
                    "types",
                    "tiers",
                    "tags",
                    "exclude_tags",
                    "session_id",
                    "from",
                    "to",
                    "metadata_filter");
    static final Set<String> WEIGHTS =
            Set.of("semantic", "recency", "importance", "usage", "quality", "consistency", "decay");

    public static SearchRequest parse(
            JsonObject body, Principal principal, RankingSettings defaults) {
        Scope scope =
                principal.scopeFor(
                        Fields.id(body, "user_id"), Fields.optionalId(body, "project_id"));
        String query = Fields.text(body, "query", MAX_QUERY_CHARS);
        int limit = Fields.integer(body, "limit", 7, 1, MAX_LIMIT);
        List<HistoryMessage> history = history(body);
        RankingSettings ranking =
                defaults.withThresholds(
                        Fields.number(body, "threshold", defaults.similarityThreshold(), 0, 1),
                        Fields.number(body, "importance_floor", defaults.importanceFloor(), 0, 1));
        JsonObject w = Fields.object(body, "weights", WEIGHTS.size());
        if (w != null) {
            for (String k : w.fieldNames()) {
                if (!WEIGHTS.contains(k)) {
                    throw Problem.badRequest(
                            "weights."
                                    + k
                                    + ": unknown weight; known: "
                                    + String.join(", ", WEIGHTS));
                }
            }
            RankingWeights d = defaults.weights();
            try {
                ranking =
                        ranking.withWeights(
                                new RankingWeights(
                                        Fields.number(w, "semantic", d.semantic(), 0, 10),
                                        Fields.number(w, "recency", d.recency(), 0, 10),
                                        Fields.number(w, "importance", d.importance(), 0, 10),
                                        Fields.number(w, "usage", d.usage(), 0, 10),
                                        Fields.number(w, "quality", d.quality(), 0, 10),
                                        Fields.number(w, "consistency", d.consistency(), 0, 10),
                                        Fields.number(w, "decay", d.decay(), 0, 10)));
            } catch (IllegalArgumentException e) {
                throw Problem.badRequest("weights: " + e.getMessage());
            }
        }
        Instant from = Fields.optionalFilterTime(body, "from");
        Instant to = Fields.optionalFilterTime(body, "to");
        if (from != null && to != null && !from.isBefore(to)) {
            throw Problem.badRequest("from: must be before to");
        }
        JsonObject metadata = Fields.json(body, "metadata_filter", 10);
        return new SearchRequest(
                scope,
                query,
                limit,
                history,
                Fields.bool(body, "force", false),
                Fields.bool(body, "include_history", false),
                Fields.bool(body, "multi_query", true),
                Fields.bool(body, "use_llm", true),
                retrieval(body),
                strategy(body),
                ranking,
                Fields.enumValues(
                        body, "types", Set.of("semantic", "episodic", "procedural", "social")),
                Fields.enumValues(body, "tiers", Set.of("hot", "warm", "cold")),
                Fields.strings(body, "tags", 20, 100),
                Fields.strings(body, "exclude_tags", 20, 100),
                Fields.optionalId(body, "session_id"),
                from,
                to,
                metadata,
                body.encode());
    }

    /**
     * The strategy a request gets without asking: {@code direct}. On LoCoMo dev {@code auto} found
     * no more of the evidence (benchmarks/results/locomo.md, per-strategy table) and its chains
     * cost one or two more searches, so it is asked for, not given.
     */
    public static final RetrievalStrategy DEFAULT_STRATEGY = RetrievalStrategy.DIRECT;

    private static RetrievalStrategy strategy(JsonObject body) {
        if (!body.containsKey("strategy")) {
            return DEFAULT_STRATEGY;
        }
        String v = Fields.text(body, "strategy", 10);
        return RetrievalStrategy.parse(v)
                .orElseThrow(
                        () ->
                                Problem.badRequest(
                                        "strategy: '"
                                                + v
                                                + "' is not one of auto, direct, split, chain"));
    }

    private static Retrieval retrieval(JsonObject body) {
        if (!body.containsKey("retrieval")) {
            return Retrieval.HYBRID;
        }
        String v = Fields.text(body, "retrieval", 10);
        return switch (v) {
            case "hybrid" -> Retrieval.HYBRID;
            case "dense" -> Retrieval.DENSE;
            case "bm25" -> Retrieval.BM25;
            default ->
                    throw Problem.badRequest(
                            "retrieval: '" + v + "' is not one of hybrid, dense, bm25");
        };
    }

    private static List<HistoryMessage> history(JsonObject body) {
        Object v = body.getValue("history");
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof JsonArray a)) {
            throw Problem.badRequest("history: must be an array of {role, content}");
        }
        if (a.size() > 20) {
            throw Problem.badRequest("history: at most 20 messages");
        }
        List<HistoryMessage> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (!(a.getValue(i) instanceof JsonObject m)) {
                throw Problem.badRequest("history[" + i + "]: must be an object");
            }
            for (String f : m.fieldNames()) {
                if (!f.equals("role") && !f.equals("content")) {
                    throw Problem.badRequest("history[" + i + "]." + f + ": unknown field");
                }
            }
            String role = Fields.text(m, "role", 20);
            if (!Set.of("user", "assistant", "system", "tool").contains(role)) {
                throw Problem.badRequest(
                        "history[" + i + "].role: must be user, assistant, system or tool");
            }
            out.add(new HistoryMessage(role, Fields.text(m, "content", MAX_QUERY_CHARS)));
        }
        return out;
    }
}
