package io.engram.benchmarks.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocomoScorerTest {

    @Test
    void metricsFollowTheScoringDefinitions() {
        List<LocomoScorer.Qa> qas =
                List.of(
                        new LocomoScorer.Qa("q1", "4-single-hop", Set.of("D1:1")),
                        new LocomoScorer.Qa("q2", "1-multi-hop", Set.of("D1:2", "D2:5")),
                        new LocomoScorer.Qa("q3", "1-multi-hop", Set.of("D3:1")));
        Map<String, List<List<String>>> run =
                Map.of(
                        "q1", List.of(List.of("D9:9"), List.of("D1:1", "D1:2")),
                        "q2", List.of(List.of("D1:2"), List.of("D7:7"), List.of("D2:5")));
        var scores = LocomoScorer.score(qas, run, new int[] {1, 2, 3});
        Map<String, Double> all = scores.get("all");
        assertThat(all.get("n")).isEqualTo(3.0);
        // k=1: q1 miss, q2 one of two, q3 absent from the run
        assertThat(all.get("any@1")).isEqualTo(0.3333);
        assertThat(all.get("all@1")).isEqualTo(0.0);
        assertThat(all.get("frac@1")).isEqualTo(0.1667);
        assertThat(all.get("cov@1")).isEqualTo(0.6667);
        // k=3: q1 hit (fewer results than k), q2 complete
        assertThat(all.get("any@3")).isEqualTo(0.6667);
        assertThat(all.get("all@3")).isEqualTo(0.6667);
        assertThat(all.get("cov@3")).isEqualTo(2.0);
        assertThat(scores.keySet()).containsExactly("all", "4-single-hop", "1-multi-hop");
        assertThat(scores.get("1-multi-hop").get("n")).isEqualTo(2.0);
    }
}
