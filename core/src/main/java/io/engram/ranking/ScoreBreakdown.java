package io.engram.ranking;

/** Each signal normalised to [0, 1], as it entered the weighted sum. */
public record ScoreBreakdown(
        double semantic,
        double recency,
        double importance,
        double usage,
        double quality,
        double consistency,
        double decay) {}
