package io.engram.ranking;

/**
 * Weights of the ranking signals. The defaults are the product's; a tenant may override them.
 * Weights need not sum to 1: scores are divided by the sum, so they stay in [0, 1].
 */
public record RankingWeights(
        double semantic,
        double recency,
        double importance,
        double usage,
        double quality,
        double consistency,
        double decay) {

    public static final RankingWeights DEFAULT =
            new RankingWeights(0.50, 0.20, 0.15, 0.05, 0.05, 0.025, 0.025);

    public RankingWeights {
        double[] all = {semantic, recency, importance, usage, quality, consistency, decay};
        double sum = 0;
        for (double w : all) {
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException(
                        "ranking weights must be finite and non-negative");
            }
            sum += w;
        }
        if (sum <= 0) {
            throw new IllegalArgumentException("at least one ranking weight must be positive");
        }
    }

    public double sum() {
        return semantic + recency + importance + usage + quality + consistency + decay;
    }
}
