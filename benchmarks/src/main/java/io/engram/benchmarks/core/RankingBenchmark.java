package io.engram.benchmarks.core;

import io.engram.ranking.RankCandidate;
import io.engram.ranking.Ranked;
import io.engram.ranking.Ranker;
import io.engram.ranking.RankingSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Setup;

/** Ranking 1,000 recalled candidates down to the best 7 with the weighted formula. */
public class RankingBenchmark extends BenchmarkDefaults {

    private final List<RankCandidate> candidates = new ArrayList<>();
    private final Instant now = Instant.parse("2026-06-01T00:00:00Z");

    @Setup
    public void setUp() {
        Random random = new Random(42);
        for (int i = 0; i < 1000; i++) {
            candidates.add(
                    new RankCandidate(
                            "00000000-0000-0000-0000-" + String.format("%012d", i),
                            random.nextDouble(),
                            now.minusSeconds(random.nextInt(90 * 24 * 3600)),
                            random.nextDouble(),
                            random.nextInt(100),
                            random.nextDouble(),
                            random.nextDouble(),
                            random.nextDouble()));
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public List<Ranked> rank1000Top7() {
        return Ranker.rank(candidates, now, RankingSettings.DEFAULT, 7);
    }
}
