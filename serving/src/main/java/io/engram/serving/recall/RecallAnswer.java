package io.engram.serving.recall;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.ranking.RankCandidate;
import io.engram.ranking.Ranked;
import io.engram.ranking.Ranker;
import io.engram.ranking.ScoreBreakdown;
import io.engram.text.Text;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The answer of a recall from its hydrated candidates: weighted ranking ({@link Ranker}), the
 * memories in answer order ({@link AnswerOrder}), the JSON and its explanation. No I/O.
 */
final class RecallAnswer {

    private RecallAnswer() {}

    /** The response body, and every memory it returns (with the excerpts they take along). */
    record Answer(JsonObject body, List<UUID> returned) {}

    /** The answer of a recall that did not search, and why. */
    static JsonObject skipped(String requestId, String why, JsonArray degraded) {
        return new JsonObject()
                .put("memories", new JsonArray())
                .put("request_id", requestId)
                .put("skipped", true)
                .put("explanation", "memory skipped: " + why)
                .put("degraded", degraded);
    }

    static Answer of(RecallCall call, Instant now) {
        Map<String, RecallCall.Candidate> byId = call.candidates;
        List<RankCandidate> ranked = rankCandidates(call);
        List<AnswerOrder.Picked> picked =
                AnswerOrder.picks(
                        call, Ranker.rank(ranked, now, call.request.ranking(), ranked.size()));
        JsonArray memories = new JsonArray();
        List<UUID> returned = new ArrayList<>();
        List<Ranked> top = new ArrayList<>(picked.size());
        for (AnswerOrder.Picked p : picked) {
            Ranked r = p.ranked();
            RecallCall.Candidate c = byId.get(r.candidate().id());
            JsonObject m = memory(c, r);
            if (p.context() != null) {
                // The excerpt the fact was read from: its words, and the turns both tell.
                m.put("context", p.context().content());
                m.put("context_id", p.context().id);
                m.put("source_turn_ids", new JsonArray(p.sourceTurnIds()));
                returned.add(UUID.fromString(p.context().id));
            }
            memories.add(m);
            returned.add(UUID.fromString(c.id));
            top.add(r);
        }
        JsonObject body =
                new JsonObject()
                        .put("memories", memories)
                        .put("request_id", call.requestId)
                        .put("skipped", false)
                        .put("explanation", explanation(call, top))
                        .put("degraded", new JsonArray(new ArrayList<>(call.degraded)))
                        .put("queries", new JsonArray(call.queries))
                        .put("strategy", strategy(call))
                        .put("hops", hops(call));
        return new Answer(body, returned);
    }

    /**
     * A memory valid outside the time the question names keeps this share of its relevance: the
     * window ranks, it does not filter (an excerpt is dated when it was said, not when what it
     * tells happened).
     */
    static final double OUTSIDE_WINDOW = 0.8;

    /** Which strategy ran, who chose it and why, and the time the question names. */
    private static JsonObject strategy(RecallCall call) {
        JsonObject s =
                new JsonObject()
                        .put("requested", call.request.strategy().wireName())
                        .put(
                                "ran",
                                call.route == null ? "direct" : call.route.strategy().wireName())
                        .put("planner", call.planner)
                        .put("reason", call.route == null ? "" : call.route.reason());
        if (call.window != null) {
            s.put(
                    "time_window",
                    new JsonObject()
                            .put("from", call.window.from().toString())
                            .put("to", call.window.to().toString())
                            .put("phrase", call.window.phrase())
                            .put("every_year", call.window.everyYear()));
        }
        return s;
    }

    private static JsonArray hops(RecallCall call) {
        JsonArray out = new JsonArray();
        for (RecallCall.HopRecord h : call.hops) {
            out.add(
                    new JsonObject()
                            .put("hop", h.hop())
                            .put("queries", new JsonArray(h.queries()))
                            .put("new_candidates", h.newCandidates())
                            .put("verdict", h.verdict())
                            .put("ms", Math.round(h.nanos() / 10_000.0) / 100.0));
        }
        return out;
    }

    /**
     * The ranker's view of each candidate; without the index's relevance, the share of the
     * question's words it contains (halved).
     */
    private static List<RankCandidate> rankCandidates(RecallCall call) {
        Set<String> queryWords = Text.contentWords(call.rewritten);
        List<RankCandidate> ranked = new ArrayList<>();
        for (RecallCall.Candidate c : call.candidates.values()) {
            double semantic =
                    Double.isNaN(c.relevance) ? overlap(queryWords, c.content()) : c.relevance;
            Instant validFrom =
                    c.row != null
                            ? c.row.validFrom()
                            : c.source == null
                                    ? null
                                    : Instant.parse(c.source.path("valid_from").asText());
            if (call.window != null && semantic > 0 && !call.window.contains(validFrom)) {
                semantic *= OUTSIDE_WINDOW;
            }
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
        return ranked;
    }

    private static double overlap(Set<String> query, String content) {
        if (query.isEmpty()) {
            return 0;
        }
        return Text.containment(query, Text.contentWords(content)) * 0.5;
    }

    private static JsonObject memory(RecallCall.Candidate c, Ranked r) {
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
                    .put("session_id", row.sessionId())
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
            if (row.contradictedByContent() != null) {
                m.put("contradicted_by_content", row.contradictedByContent());
            }
        } else {
            JsonNode s = c.source;
            JsonArray tags = new JsonArray();
            s.path("tags").forEach(t -> tags.add(t.asText()));
            m.put("content", s.path("content").asText())
                    .put(
                            "session_id",
                            s.hasNonNull("session_id") ? s.path("session_id").asText() : null)
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

    private static String explanation(RecallCall call, List<Ranked> top) {
        StringBuilder e = new StringBuilder();
        if (call.route != null) {
            e.append("strategy ")
                    .append(call.route.strategy().wireName())
                    .append(" (")
                    .append(call.planner)
                    .append(": ")
                    .append(call.route.reason())
                    .append("), ");
            long searched = call.hops.stream().filter(h -> !h.queries().isEmpty()).count();
            e.append(searched).append(searched == 1 ? " hop, " : " hops, ");
        }
        e.append(call.queries.size()).append(call.queries.size() == 1 ? " query" : " queries");
        if (call.wasRewritten) {
            e.append(" (rewritten from the conversation)");
        }
        if (call.window != null) {
            e.append("; memories valid ").append(call.window.phrase()).append(" first");
        }
        SearchRequest.Retrieval mode = call.request.retrieval();
        e.append(
                call.vectors.isEmpty() || mode == SearchRequest.Retrieval.BM25
                        ? ", BM25 only"
                        : mode == SearchRequest.Retrieval.DENSE
                                ? ", k-NN only"
                                : ", k-NN + BM25 (relevance: mean of cosine and relative BM25)");
        if (!call.excerptRanking.isEmpty()) {
            e.append(", fused with the excerpts' k-NN ranking by their turns");
        }
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

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
