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
        Map<String, Double> scores = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (List<String> ranking : rankings) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                String id = ranking.get(rank);
                if (!scores.containsKey(id)) {
                    order.add(id);
                }
                scores.merge(id, 1.0 / (k + rank + 1), Double::sum);
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
