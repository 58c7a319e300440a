package io.engram.ranking;

import java.time.Instant;

/**
 * A recalled memory with the raw values of its ranking signals.
 *
 * @param similarity semantic similarity to the query, in [-1, 1] (cosine) or [0, 1]
 * @param lastActivity last recall, or creation when never recalled
 */
public record RankCandidate(
        String id,
        double similarity,
        Instant lastActivity,
        double importance,
        long usageCount,
        double quality,
        double consistency,
        double decay) {}
