package io.engram.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RankerTest {

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    private static RankCandidate candidate(
            String id, double sim, Duration age, double importance, long usage) {
        return new RankCandidate(id, sim, NOW.minus(age), importance, usage, 0.5, 1.0, 1.0);
    }

    @Test
    void scoreIsTheWeightedSumOfNormalisedSignals() {
        RankCandidate c = candidate("a", 0.8, Duration.ofDays(30), 0.6, 20);
        Ranked r = Ranker.rank(List.of(c), NOW, RankingSettings.DEFAULT, 5).get(0);
        ScoreBreakdown b = r.breakdown();
        assertThat(b.semantic()).isEqualTo(0.8);
        assertThat(b.recency()).isCloseTo(0.5, within(1e-9));
        assertThat(b.usage()).isCloseTo(1.0, within(1e-9));
        double expected =
                0.5 * 0.8
                        + 0.2 * 0.5
                        + 0.15 * 0.6
                        + 0.05 * 1.0
                        + 0.05 * 0.5
                        + 0.025 * 1.0
                        + 0.025 * 1.0;
        assertThat(r.score()).isCloseTo(expected, within(1e-9));
    }

    @Test
    void moreSimilarAndFresherMemoriesRankHigher() {
        List<Ranked> ranked =
                Ranker.rank(
                        List.of(
                                candidate("old-close", 0.9, Duration.ofDays(365), 0.5, 0),
                                candidate("new-close", 0.9, Duration.ofDays(1), 0.5, 0),
                                candidate("new-far", 0.1, Duration.ofDays(1), 0.5, 0)),
                        NOW,
                        RankingSettings.DEFAULT,
                        3);
        assertThat(ranked)
                .extracting(r -> r.candidate().id())
                .containsExactly("new-close", "old-close", "new-far");
    }

    @Test
    void thresholdAndFloorDropCandidates() {
        RankingSettings settings = RankingSettings.DEFAULT.withThresholds(0.3, 0.4);
        List<Ranked> ranked =
                Ranker.rank(
                        List.of(
                                candidate("keep", 0.5, Duration.ZERO, 0.5, 0),
                                candidate("dissimilar", 0.2, Duration.ZERO, 0.9, 0),
                                candidate("unimportant", 0.9, Duration.ZERO, 0.1, 0)),
                        NOW,
                        settings,
                        10);
        assertThat(ranked).extracting(r -> r.candidate().id()).containsExactly("keep");
    }

    @Test
    void tenantWeightsChangeTheOrder() {
        List<RankCandidate> cs =
                List.of(
                        candidate("similar", 0.9, Duration.ofDays(200), 0.1, 0),
                        candidate("important", 0.3, Duration.ofDays(200), 1.0, 0));
        RankingWeights importanceFirst = new RankingWeights(0.1, 0, 0.9, 0, 0, 0, 0);
        assertThat(Ranker.rank(cs, NOW, RankingSettings.DEFAULT, 1).get(0).candidate().id())
                .isEqualTo("similar");
        assertThat(
                        Ranker.rank(
                                        cs,
                                        NOW,
                                        RankingSettings.DEFAULT.withWeights(importanceFirst),
                                        1)
                                .get(0)
                                .candidate()
                                .id())
                .isEqualTo("important");
    }

    @Test
    void topKEqualsAFullSort() {
        Random random = new Random(1);
        List<RankCandidate> cs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            cs.add(
                    candidate(
                            "m" + i,
                            random.nextDouble(),
                            Duration.ofHours(random.nextInt(10_000)),
                            random.nextDouble(),
                            random.nextInt(50)));
        }
        List<Ranked> top = Ranker.rank(cs, NOW, RankingSettings.DEFAULT, 7);
        List<Ranked> all = new ArrayList<>(Ranker.rank(cs, NOW, RankingSettings.DEFAULT, 1000));
        all.sort(Comparator.comparingDouble(Ranked::score).reversed());
        assertThat(top)
                .extracting(r -> r.candidate().id())
                .containsExactlyElementsOf(
                        all.subList(0, 7).stream().map(r -> r.candidate().id()).toList());
    }

    @Test
    void invalidWeightsAreRejected() {
        assertThatThrownBy(() -> new RankingWeights(-1, 0, 0, 0, 0, 0, 0))
                .hasMessageContaining("non-negative");
        assertThatThrownBy(() -> new RankingWeights(0, 0, 0, 0, 0, 0, 0))
                .hasMessageContaining("positive");
    }

    @Test
    void reciprocalRankFusionRewardsAgreement() {
        var fused =
                ReciprocalRankFusion.fuse(
                        List.of(List.of("a", "b", "c"), List.of("c", "b", "d")),
                        ReciprocalRankFusion.DEFAULT_K);
        assertThat(fused.keySet()).containsExactly("c", "b", "a", "d");
        assertThat(fused.get("c")).isCloseTo(1.0 / 63 + 1.0 / 61, within(1e-12));
        assertThat(fused.get("b")).isCloseTo(2.0 / 62, within(1e-12));
        assertThat(fused.get("a")).isCloseTo(1.0 / 61, within(1e-12));
    }

    @Test
    void aWeightedListCountsForItsWeight() {
        var fused =
                ReciprocalRankFusion.fuse(
                        List.of(List.of("a", "b"), List.of("b", "c")), List.of(1.0, 0.5), 10);
        assertThat(fused.keySet()).containsExactly("b", "a", "c");
        assertThat(fused.get("b")).isCloseTo(1.0 / 12 + 0.5 / 11, within(1e-12));
        assertThat(fused.get("c")).isCloseTo(0.5 / 12, within(1e-12));
    }

    @Test
    void contextPackingStaysWithinTheBudgetAndSkipsWhatDoesNotFit() {
        Instant day = Instant.parse("2026-03-15T10:00:00Z");
        List<ContextPacker.Item> items =
                List.of(
                        new ContextPacker.Item(
                                "1", "Alice's budget for the Hawaii trip is $15,000.", day),
                        new ContextPacker.Item("2", "x".repeat(400), day),
                        new ContextPacker.Item("3", "Alice's flights are booked for June 5.", day));
        ContextPacker.PromptBlock block = ContextPacker.pack(items, 60);
        assertThat(block.includedIds()).containsExactly("1", "3");
        assertThat(block.omitted()).isEqualTo(1);
        assertThat(block.tokens()).isLessThanOrEqualTo(60);
        assertThat(block.text())
                .startsWith(ContextPacker.HEADER)
                .contains("- Alice's budget for the Hawaii trip is $15,000. (2026-03-15)");
        assertThat(ContextPacker.pack(items, 5).text()).isEmpty();
    }

    @Test
    void signalsAreBoundedAndMonotonic() {
        assertThat(Signals.halfLife(NOW.plusSeconds(60), NOW, Duration.ofDays(1))).isEqualTo(1.0);
        assertThat(Signals.halfLife(NOW.minus(Duration.ofDays(2)), NOW, Duration.ofDays(1)))
                .isCloseTo(0.25, within(1e-9));
        assertThat(Signals.usage(0, 20)).isZero();
        assertThat(Signals.usage(5, 20)).isBetween(0.0, 1.0);
        assertThat(Signals.usage(500, 20)).isEqualTo(1.0);
    }

    @Test
    void aStaleStatementScoresHalfAndIsNeverRankedAboveWhatContradictsIt() {
        RankCandidate current = new RankCandidate("new", 0.30, NOW, 0.5, 0, 0.5, 1.0, 1.0, null);
        RankCandidate stale = new RankCandidate("old", 0.95, NOW, 0.5, 0, 0.5, 0.2, 1.0, "new");
        RankCandidate other = new RankCandidate("x", 0.5, NOW, 0.5, 0, 0.5, 1.0, 1.0, null);
        List<Ranked> ranked =
                Ranker.rank(List.of(stale, other, current), NOW, RankingSettings.DEFAULT, 3);
        assertThat(ranked).extracting(r -> r.candidate().id()).containsExactly("x", "new", "old");
        double unmarked =
                Ranker.rank(
                                List.of(new RankCandidate("old", 0.95, NOW, 0.5, 0, 0.5, 0.2, 1.0)),
                                NOW,
                                RankingSettings.DEFAULT,
                                1)
                        .get(0)
                        .score();
        assertThat(ranked.get(2).score()).isCloseTo(unmarked * Ranker.STALE_FACTOR, within(1e-9));
    }
}
