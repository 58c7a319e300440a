package io.engram.ranking;

import java.time.Duration;

/**
 * Everything that shapes a ranking besides the candidates.
 *
 * @param recencyHalfLife age at which the recency signal is 0.5
 * @param usageSaturation recall count at which the usage signal reaches 1
 * @param similarityThreshold candidates with a lower semantic signal are dropped
 * @param importanceFloor candidates with a lower importance are dropped
 */
public record RankingSettings(
        RankingWeights weights,
        Duration recencyHalfLife,
        int usageSaturation,
        double similarityThreshold,
        double importanceFloor) {

    public static final RankingSettings DEFAULT =
            new RankingSettings(RankingWeights.DEFAULT, Duration.ofDays(30), 20, 0.0, 0.0);

    public RankingSettings {
        if (recencyHalfLife.isZero() || recencyHalfLife.isNegative()) {
            throw new IllegalArgumentException("recency half-life must be positive");
        }
        if (usageSaturation < 1) {
            throw new IllegalArgumentException("usage saturation must be at least 1");
        }
        if (similarityThreshold < 0
                || similarityThreshold > 1
                || importanceFloor < 0
                || importanceFloor > 1) {
            throw new IllegalArgumentException(
                    "similarity threshold and importance floor must be in [0, 1]");
        }
    }

    public RankingSettings withWeights(RankingWeights w) {
        return new RankingSettings(
                w, recencyHalfLife, usageSaturation, similarityThreshold, importanceFloor);
    }

    public RankingSettings withThresholds(double similarity, double importance) {
        return new RankingSettings(
                weights, recencyHalfLife, usageSaturation, similarity, importance);
    }
}
