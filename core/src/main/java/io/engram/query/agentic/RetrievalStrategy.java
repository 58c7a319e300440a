package io.engram.query.agentic;

import java.util.Locale;
import java.util.Optional;

/**
 * How one search looks for its evidence: one search of the question ({@code direct}), independent
 * searches of its parts ({@code split}), or searches that follow what the first one found ({@code
 * chain}); {@code auto} lets the planner choose by the question's shape.
 */
public enum RetrievalStrategy {
    AUTO,
    DIRECT,
    SPLIT,
    CHAIN;

    /** The name on the wire. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The strategy named on the wire, or empty when the name is none of them. */
    public static Optional<RetrievalStrategy> parse(String name) {
        for (RetrievalStrategy s : values()) {
            if (s.wireName().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
