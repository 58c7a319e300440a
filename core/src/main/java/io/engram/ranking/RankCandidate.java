package io.engram.ranking;

import java.time.Instant;

/**
 * A recalled memory with the raw values of its ranking signals.
 *
 * @param similarity semantic similarity to the query, in [-1, 1] (cosine) or [0, 1]
 * @param contradictedBy the id of the newer fact that contradicts this memory, or null
 * @param factTime when the fact became true (valid_from): the recency signal. How long a memory has
 *     gone without recall is the decay signal, kept by the maintenance job, so the service's own
 *     recalls never feed back into recency.
 */
public record RankCandidate(
        String id,
        double similarity,
        Instant factTime,
        double importance,
        long usageCount,
        double quality,
        double consistency,
        double decay,
        String contradictedBy) {

    /** A candidate no newer fact contradicts. */
    public RankCandidate(
            String id,
            double similarity,
            Instant factTime,
            double importance,
            long usageCount,
            double quality,
            double consistency,
            double decay) {
        this(id, similarity, factTime, importance, usageCount, quality, consistency, decay, null);
    }

    /** Whether a newer fact contradicts what this memory says. */
    public boolean stale() {
        return contradictedBy != null;
    }
}
