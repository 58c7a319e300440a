package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Optional;

/**
 * One durable statement about a named person, as a clean third-person sentence, with what
 * supersession needs: the thing it gives a value of ({@link FactKey}) when it has one.
 *
 * @param kind attribute, preference, relationship, plan, event
 * @param validFrom when it became true: the time it names, else when it was said
 */
public record Statement(
        String kind,
        MemoryType type,
        String content,
        Optional<FactKey> key,
        Instant validFrom,
        double importance) {

    /** The kind of a statement told in passing: a provider, place or belonging named by the way. */
    public static final String IN_PASSING = "in passing";

    /**
     * Whether it was told in passing ("my monzo card got declined"): it never stands in for a
     * change the same sentence tells.
     */
    public boolean inPassing() {
        return IN_PASSING.equals(kind);
    }
}
