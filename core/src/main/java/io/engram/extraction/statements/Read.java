package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import java.time.Instant;

/** One statement read from a clause, before it is written as a sentence and checked. */
record Read(String kind, MemoryType type, String text, Instant validFrom, double importance) {

    static Read of(String kind, String text, Instant said, double importance) {
        return new Read(kind, MemoryType.SEMANTIC, text, said, importance);
    }

    /** A statement valid from the time it names ("… last month"), else from when it was said. */
    static Read since(
            String kind,
            String text,
            java.util.Optional<TimePhrases.Resolved> when,
            Instant said,
            double importance) {
        return new Read(
                kind,
                MemoryType.SEMANTIC,
                text,
                when.map(TimePhrases.Resolved::instant).orElse(said),
                importance);
    }

    /** A relationship of the speaker's, kept as a semantic memory ("Dana is dating Chris"). */
    static Read relationship(String text, Instant said) {
        return of("relationship", text, said, 0.75);
    }

    static Read social(String text, Instant said) {
        return new Read("relationship", MemoryType.SOCIAL, text, said, 0.75);
    }
}
