package io.engram.ranking;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Merges ranked lists by reciprocal rank: score(d) = Σ 1 / (k + rank of d in each list). */
public final class ReciprocalRankFusion {

    public static final int DEFAULT_K = 60;

    private ReciprocalRankFusion() {}

    /** Ids by fused score, best first; ties keep first-seen order. */
    public static LinkedHashMap<String, Double> fuse(List<List<String>> rankings, int k) {
        return fuse(rankings, java.util.Collections.nCopies(rankings.size(), 1.0), k);
    }

    /** As {@link #fuse(List, int)}, each list's terms times its weight. */
    public static LinkedHashMap<String, Double> fuse(
            List<List<String>> rankings, List<Double> weights, int k) {
        Map<String, Double> scores = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (int r = 0; r < rankings.size(); r++) {
            List<String> ranking = rankings.get(r);
            double weight = weights.get(r);
            for (int rank = 0; rank < ranking.size(); rank++) {
                String id = ranking.get(rank);
                if (!scores.containsKey(id)) {
                    order.add(id);
                }
                scores.merge(id, weight / (k + rank + 1), Double::sum);
            }
        }
        List<String> sorted = new ArrayList<>(order);
        sorted.sort((a, b) -> Double.compare(scores.get(b), scores.get(a)));
        LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        for (String id : sorted) {
            out.put(id, scores.get(id));
        }
        return out;
    }
}
