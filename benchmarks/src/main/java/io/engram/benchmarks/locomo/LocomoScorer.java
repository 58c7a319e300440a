package io.engram.benchmarks.locomo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The LoCoMo retrieval metrics of SCORING.md: for each QA with gold evidence G and the union C_k of
 * the source turns of the first k results, any@k, all@k, frac@k = |G ∩ C_k| / |G| and cov@k =
 * |C_k|, micro-averaged overall and per category.
 */
public final class LocomoScorer {

    /** One question: its id, category key ("4-single-hop") and gold turn ids. */
    public record Qa(String id, String category, Set<String> evidence) {}

    private LocomoScorer() {}

    /** category ("all" first) → metric name → value; also "n". */
    public static Map<String, Map<String, Double>> score(
            List<Qa> qas, Map<String, List<List<String>>> run, int[] ks) {
        Map<String, Map<String, Double>> sums = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Qa qa : qas) {
            List<List<String>> ranked = run.getOrDefault(qa.id(), List.of());
            for (String bucket : List.of("all", qa.category())) {
                counts.merge(bucket, 1, Integer::sum);
                Map<String, Double> b = sums.computeIfAbsent(bucket, k -> new LinkedHashMap<>());
                for (int k : ks) {
                    Set<String> covered = new HashSet<>();
                    for (List<String> sources : ranked.subList(0, Math.min(k, ranked.size()))) {
                        covered.addAll(sources);
                    }
                    int hit = 0;
                    for (String g : qa.evidence()) {
                        if (covered.contains(g)) {
                            hit++;
                        }
                    }
                    b.merge("any@" + k, hit > 0 ? 1.0 : 0.0, Double::sum);
                    b.merge("all@" + k, hit == qa.evidence().size() ? 1.0 : 0.0, Double::sum);
                    b.merge("frac@" + k, (double) hit / qa.evidence().size(), Double::sum);
                    b.merge("cov@" + k, (double) covered.size(), Double::sum);
                }
            }
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        List<String> order = new ArrayList<>(sums.keySet());
        order.sort(
                (a, c) ->
                        a.equals("all")
                                ? -1
                                : c.equals("all") ? 1 : categoryRank(a) - categoryRank(c));
        for (String bucket : order) {
            Map<String, Double> m = new LinkedHashMap<>();
            int n = counts.get(bucket);
            m.put("n", (double) n);
            sums.get(bucket).forEach((name, v) -> m.put(name, Math.round(v / n * 10000) / 10000.0));
            out.put(bucket, m);
        }
        return out;
    }

    private static int categoryRank(String key) {
        return switch (key.substring(0, 1)) {
            case "4" -> 0;
            case "1" -> 1;
            case "2" -> 2;
            default -> 3;
        };
    }
}
