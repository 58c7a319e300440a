package io.engram.query.agentic;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Decides how a search looks for its evidence: which strategy runs and with which queries, and
 * after each hop whether what was found suffices or which queries look for the missing part.
 * Neither method completes exceptionally in the heuristic planner; a planner backed by a model may,
 * and its caller then asks the heuristic one.
 */
public interface RetrievalPlanner {

    /** At most this many queries in one hop. */
    int MAX_QUERIES_PER_HOP = 3;

    /** The planner's name, as the answer reports it. */
    String name();

    /**
     * The strategy for a question, given the one requested ({@code auto}: the planner's choice).
     */
    CompletableFuture<Route> route(String question, RetrievalStrategy requested);

    /**
     * After a hop of a chain: whether the evidence suffices, else the next hop's queries (none: the
     * chain stops).
     */
    CompletableFuture<Hop> next(String question, List<String> asked, List<Evidence> evidence);

    /**
     * The strategy that runs and its first hop's queries (the question, or its parts for a split);
     * {@code reason} says why in a few words.
     */
    record Route(RetrievalStrategy strategy, List<String> queries, String reason) {
        public Route {
            if (strategy == RetrievalStrategy.AUTO) {
                throw new IllegalArgumentException("a route names the strategy that runs");
            }
            queries = List.copyOf(queries);
        }
    }

    /** The judgment after a hop: sufficient, or the next queries and why. */
    record Hop(boolean sufficient, List<String> queries, String reason) {
        public Hop {
            queries = List.copyOf(queries);
        }

        public static Hop enough(String reason) {
            return new Hop(true, List.of(), reason);
        }
    }

    /** A memory found so far: its words and its relevance to the query that found it. */
    record Evidence(String content, double relevance) {}
}
