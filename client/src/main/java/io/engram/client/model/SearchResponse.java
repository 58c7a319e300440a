package io.engram.client.model;

import java.time.Instant;
import java.util.List;

/** A recall's answer: the memories, what ran and what it went without ({@code degraded}). */
public record SearchResponse(
        List<Memory> memories,
        String requestId,
        String explanation,
        Boolean skipped,
        Boolean cached,
        List<String> queries,
        Strategy strategy,
        List<Hop> hops,
        List<String> degraded) {

    /** The retrieval strategy that ran, who chose it and why. */
    public record Strategy(
            String requested, String ran, String planner, String reason, TimeWindow timeWindow) {}

    /** The time a question names, as [from, to). */
    public record TimeWindow(Instant from, Instant to, String phrase) {}

    /** One search round. */
    public record Hop(
            int hop, List<String> queries, int newCandidates, String verdict, double ms) {}
}
