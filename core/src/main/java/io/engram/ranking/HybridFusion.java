package io.engram.ranking;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Relevance from a hybrid search: the k-NN and BM25 answers of every query of one recall merged
 * into candidates, each with one relevance in [-1, 1].
 *
 * <p>Candidates are the main query's k-NN and BM25 hits and the best few of each auxiliary query
 * (by {@link ReciprocalRankFusion}). Per query, a candidate's relevance is the mean of its cosine
 * similarity and its BM25 score divided by the query's best BM25 score; a leg that did not run
 * counts as absent, not as zero. Over all queries a candidate keeps its best. Cosine finds
 * paraphrases, BM25 the exact names and rare words a question quotes; either alone misses what the
 * other finds.
 *
 * <p>The k-NN search asks for a window of nearest memories larger than the candidates it gives, so
 * that its cosines also score the BM25 hits. A BM25 hit outside a full window is less similar than
 * all of it and gets the window's lowest cosine, an upper bound of its own. A memory without a
 * vector has no cosine to bound: for it the k-NN leg is absent, and its relevance is lexical.
 */
public final class HybridFusion {

    private HybridFusion() {}

    /**
     * One hit of a search: a memory id, the engine's score, and whether the memory has no vector (a
     * conversation excerpt is found by its words alone).
     */
    public record Hit(String id, double score, boolean vectorless) {
        public Hit(String id, double score) {
            this(id, score, false);
        }
    }

    /**
     * One query's answers.
     *
     * @param knn the k-NN hits, best first, scored {@code (1 + cos) / 2}; null when the search did
     *     not run or failed
     * @param bm25 the BM25 hits, best first; null when the search did not run or failed
     * @param knnTake how many k-NN hits become candidates (0 when only BM25 was asked for)
     * @param knnWindow how many k-NN hits the search asked for
     * @param auxiliary an auxiliary query: only its best {@code auxiliaryTake} hits by RRF become
     *     candidates
     */
    public record QueryHits(
            List<Hit> knn, List<Hit> bm25, int knnTake, int knnWindow, boolean auxiliary) {}

    /**
     * The candidates of all queries with their relevance, in the order they were first found (NaN
     * when neither leg scored one, e.g. both failed).
     */
    public static LinkedHashMap<String, Double> fuse(List<QueryHits> queries, int auxiliaryTake) {
        LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        for (QueryHits q : queries) {
            merge(out, one(q, auxiliaryTake));
        }
        return out;
    }

    /** Keeps each candidate's best relevance; a known relevance replaces NaN. */
    private static void merge(Map<String, Double> into, Map<String, Double> from) {
        from.forEach(
                (id, relevance) ->
                        into.merge(
                                id,
                                relevance,
                                (old, now) ->
                                        Double.isNaN(old) || (!Double.isNaN(now) && now > old)
                                                ? now
                                                : old));
    }

    private static Map<String, Double> one(QueryHits q, int auxiliaryTake) {
        Set<String> hits = new LinkedHashSet<>();
        List<String> knnIds = new ArrayList<>();
        List<String> bm25Ids = new ArrayList<>();
        Map<String, Double> cosines = new HashMap<>();
        int knnSeen = 0;
        double lowestCos = Double.NaN;
        if (q.knn() != null) {
            for (Hit h : q.knn()) {
                lowestCos = 2 * h.score() - 1;
                cosines.put(h.id(), lowestCos);
                if (knnSeen++ < q.knnTake()) {
                    hits.add(h.id());
                    knnIds.add(h.id());
                }
            }
        }
        Map<String, Double> bm25Scores = new HashMap<>();
        Set<String> vectorless = new java.util.HashSet<>();
        double bestBm25 = 0;
        if (q.bm25() != null) {
            for (Hit h : q.bm25()) {
                if (h.vectorless()) {
                    vectorless.add(h.id());
                }
                hits.add(h.id());
                bm25Ids.add(h.id());
                bm25Scores.put(h.id(), h.score());
                bestBm25 = Math.max(bestBm25, h.score());
            }
        }
        Iterable<String> taken =
                q.auxiliary()
                        ? ReciprocalRankFusion.fuse(
                                        List.of(knnIds, bm25Ids), ReciprocalRankFusion.DEFAULT_K)
                                .keySet()
                                .stream()
                                .limit(auxiliaryTake)
                                .toList()
                        : hits;
        boolean fullWindow = knnSeen >= q.knnWindow();
        Map<String, Double> out = new LinkedHashMap<>();
        for (String id : taken) {
            double cos =
                    cosines.getOrDefault(
                            id, fullWindow && !vectorless.contains(id) ? lowestCos : Double.NaN);
            double lexical =
                    q.bm25() != null && bestBm25 > 0
                            ? bm25Scores.getOrDefault(id, 0.0) / bestBm25
                            : Double.NaN;
            double relevance =
                    Double.isNaN(cos) ? lexical : Double.isNaN(lexical) ? cos : (cos + lexical) / 2;
            out.put(id, relevance);
        }
        return out;
    }
}
