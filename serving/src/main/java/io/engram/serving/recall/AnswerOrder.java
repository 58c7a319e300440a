package io.engram.serving.recall;

import io.engram.extraction.Excerpts;
import io.engram.query.agentic.QuestionShape;
import io.engram.ranking.Collapse;
import io.engram.ranking.Ranked;
import io.engram.ranking.ReciprocalRankFusion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which memories a recall answers with, in which order: the weighted ranking, fused with the
 * excerpts' own k-NN ranking when they have vectors, then collapsed so that each memory tells turns
 * none above it told (a question asking for several things spread over the conversation).
 */
final class AnswerOrder {

    private AnswerOrder() {}

    /** The weight of the excerpts' k-NN ranking against the weighted ranking's, and RRF's k. */
    static final double EXCERPT_RANKING_WEIGHT = 0.5;

    static final int EXCERPT_RANKING_K = 10;

    /**
     * The weighted ranking fused with the excerpts' own k-NN ranking (reciprocal ranks): the words
     * and the weights find one kind of evidence, the turns' vectors another. Unchanged when the
     * excerpts have no vectors.
     */
    static List<Ranked> withExcerptRanking(List<Ranked> byScore, List<String> excerptRanking) {
        if (excerptRanking.isEmpty()) {
            return byScore;
        }
        Map<String, Ranked> byId = new HashMap<>();
        List<String> order = new ArrayList<>(byScore.size());
        for (Ranked r : byScore) {
            byId.put(r.candidate().id(), r);
            order.add(r.candidate().id());
        }
        List<String> excerpts = excerptRanking.stream().filter(byId::containsKey).toList();
        List<Ranked> out = new ArrayList<>(byScore.size());
        ReciprocalRankFusion.fuse(
                        List.of(order, excerpts),
                        List.of(1.0, EXCERPT_RANKING_WEIGHT),
                        EXCERPT_RANKING_K)
                .keySet()
                .forEach(id -> out.add(byId.get(id)));
        return out;
    }

    /** How many picks per answer slot a set question's spread chooses from. */
    static final int SPREAD_DEPTH = 5;

    /** A memory of the answer, the excerpt it takes along (or null), and the turns both tell. */
    record Picked(Ranked ranked, RecallCall.Candidate context, List<String> sourceTurnIds) {}

    /**
     * The answer's memories in order: the weighted ranking fused with the excerpts' own ranking,
     * collapsed ({@link Collapse}) to the request's limit, each with the excerpt it takes along.
     */
    static List<Picked> picks(RecallCall call, List<Ranked> byScore) {
        return collapse(
                withExcerptRanking(byScore, call.excerptRanking),
                call.candidates,
                call.request.limit(),
                call.rewritten != null && QuestionShape.asksForSet(call.rewritten),
                call.userRows);
    }

    private static List<Picked> collapse(
            List<Ranked> ranked,
            Map<String, RecallCall.Candidate> byId,
            int limit,
            boolean asksForSet,
            Map<String, MemoryRow> userRows) {
        Map<String, Ranked> byIdRanked = new HashMap<>();
        List<Collapse.Item> items = new ArrayList<>(ranked.size());
        for (Ranked r : ranked) {
            RecallCall.Candidate c = byId.get(r.candidate().id());
            byIdRanked.put(c.id, r);
            boolean excerpt = c.row != null && c.row.tags().contains(Excerpts.TAG);
            items.add(new Collapse.Item(c.id, c.sourceTurnIds(), excerpt));
        }
        ExcerptFinder finder = new ExcerptFinder(userRows);
        List<Picked> out = new ArrayList<>(limit);
        // A question asking for several things spreads its answer over the conversation: the
        // picks are read past the limit (not through every candidate: collapsing is quadratic),
        // and neighbouring excerpts of one exchange wait.
        List<Collapse.Pick> picks =
                asksForSet
                        ? Collapse.spread(
                                Collapse.of(items, SPREAD_DEPTH * limit, finder::excerptOf), limit)
                        : Collapse.of(items, limit, finder::excerptOf);
        for (Collapse.Pick p : picks) {
            RecallCall.Candidate context = null;
            if (p.contextId() != null) {
                context = byId.get(p.contextId());
                if (context == null) {
                    context = new RecallCall.Candidate(p.contextId());
                    context.row = userRows.get(p.contextId());
                }
            }
            out.add(new Picked(byIdRanked.get(p.id()), context, p.sourceTurnIds()));
        }
        return out;
    }

    /**
     * Where a fact whose excerpt was not recalled finds it: the user's excerpts by their last turn,
     * from the rows recall holds for the user (none when it read them from PostgreSQL), indexed on
     * the first fact that asks, not on every recall.
     */
    private static final class ExcerptFinder {
        private final Map<String, MemoryRow> userRows;
        private Map<String, MemoryRow> byLastTurn;

        ExcerptFinder(Map<String, MemoryRow> userRows) {
            this.userRows = userRows;
        }

        Collapse.Item excerptOf(Collapse.Item fact) {
            if (byLastTurn == null) {
                byLastTurn = byLastTurn(userRows);
            }
            List<String> turns = fact.sourceTurnIds();
            MemoryRow e = byLastTurn.get(turns.get(turns.size() - 1));
            return e == null ? null : new Collapse.Item(e.id(), e.sourceTurnIds(), true);
        }

        private static Map<String, MemoryRow> byLastTurn(Map<String, MemoryRow> userRows) {
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
    }
}
