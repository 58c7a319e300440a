package io.engram.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.engram.ranking.HybridFusion.Hit;
import io.engram.ranking.HybridFusion.QueryHits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HybridFusionTest {

    /** A k-NN hit of the given cosine, scored as the engine scores it. */
    private static Hit cos(String id, double cosine) {
        return new Hit(id, (1 + cosine) / 2);
    }

    @Test
    void relevanceIsTheMeanOfCosineAndRelativeBm25() {
        Map<String, Double> fused =
                HybridFusion.fuse(
                        List.of(
                                new QueryHits(
                                        List.of(cos("a", 0.8), cos("b", 0.6)),
                                        List.of(new Hit("b", 10), new Hit("a", 5)),
                                        20,
                                        2,
                                        false)),
                        3);
        assertThat(fused.get("a")).isCloseTo((0.8 + 0.5) / 2, within(1e-9));
        assertThat(fused.get("b")).isCloseTo((0.6 + 1.0) / 2, within(1e-9));
    }

    @Test
    void aLegThatDidNotRunIsAbsentNotZero() {
        Map<String, Double> knnOnly =
                HybridFusion.fuse(
                        List.of(new QueryHits(List.of(cos("a", 0.7)), null, 20, 64, false)), 3);
        assertThat(knnOnly.get("a")).isCloseTo(0.7, within(1e-9));

        Map<String, Double> bm25Only =
                HybridFusion.fuse(
                        List.of(
                                new QueryHits(
                                        null,
                                        List.of(new Hit("a", 4), new Hit("b", 2)),
                                        20,
                                        64,
                                        false)),
                        3);
        assertThat(bm25Only.get("a")).isCloseTo(1.0, within(1e-9));
        assertThat(bm25Only.get("b")).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aBm25HitOutsideAFullWindowGetsItsLowestCosine() {
        List<Hit> window = List.of(cos("a", 0.9), cos("b", 0.4));
        Map<String, Double> full =
                HybridFusion.fuse(
                        List.of(new QueryHits(window, List.of(new Hit("z", 2)), 20, 2, false)), 3);
        assertThat(full.get("z")).isCloseTo((0.4 + 1.0) / 2, within(1e-9));

        // The index had fewer memories than the window: nothing is known of z's cosine.
        Map<String, Double> partial =
                HybridFusion.fuse(
                        List.of(new QueryHits(window, List.of(new Hit("z", 2)), 20, 64, false)), 3);
        assertThat(partial.get("z")).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aMemoryWithoutAVectorIsScoredByItsWordsAlone() {
        List<Hit> window = List.of(cos("a", 0.9), cos("b", 0.4));
        Map<String, Double> fused =
                HybridFusion.fuse(
                        List.of(
                                new QueryHits(
                                        window,
                                        List.of(new Hit("excerpt", 4, true), new Hit("fact", 2)),
                                        20,
                                        2,
                                        false)),
                        3);
        assertThat(fused.get("excerpt")).isCloseTo(1.0, within(1e-9));
        assertThat(fused.get("fact")).isCloseTo((0.4 + 0.5) / 2, within(1e-9));
    }

    @Test
    void onlyTheKnnTakeBecomesCandidatesButTheWindowScores() {
        List<Hit> knn = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            knn.add(cos("m" + i, 0.9 - i * 0.05));
        }
        Map<String, Double> fused =
                HybridFusion.fuse(
                        List.of(new QueryHits(knn, List.of(new Hit("m8", 3)), 3, 10, false)), 3);
        assertThat(fused.keySet()).containsExactly("m0", "m1", "m2", "m8");
        assertThat(fused.get("m8")).isCloseTo((0.9 - 8 * 0.05 + 1.0) / 2, within(1e-9));
    }

    @Test
    void auxiliaryQueriesAddTheirBestFewAndEveryCandidateKeepsItsBest() {
        QueryHits main =
                new QueryHits(List.of(cos("a", 0.5)), List.of(new Hit("a", 1)), 20, 64, false);
        QueryHits aux =
                new QueryHits(
                        List.of(cos("a", 0.9), cos("b", 0.8), cos("c", 0.7), cos("d", 0.6)),
                        List.of(new Hit("c", 3)),
                        20,
                        64,
                        true);
        Map<String, Double> fused = HybridFusion.fuse(List.of(main, aux), 2);
        // RRF of the auxiliary query ranks c (both legs) and a first.
        assertThat(fused.keySet()).containsExactly("a", "c");
        // a keeps its main-query relevance: in the auxiliary query BM25 ran and missed it.
        assertThat(fused.get("a")).isCloseTo(0.75, within(1e-9));
        assertThat(fused.get("c")).isCloseTo((0.7 + 1.0) / 2, within(1e-9));
    }

    @Test
    void failedSearchesLeaveNoCandidates() {
        assertThat(HybridFusion.fuse(List.of(new QueryHits(null, null, 20, 64, false)), 3))
                .isEmpty();
    }
}
