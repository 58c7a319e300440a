package io.engram.memory;

import java.util.Optional;

/**
 * A change to apply to both stores, as decided for one candidate fact. Every change is idempotent:
 * applying it twice leaves the stores as applying it once.
 */
public sealed interface MemoryChange {

    /** The memory whose state the change ends in (the new one for Supersede). */
    Memory memory();

    String reason();

    double similarity();

    /** A new memory. */
    record Created(Memory memory, String reason, double similarity) implements MemoryChange {}

    /** A new version of an existing memory; {@code previousContent} goes to its history. */
    record Updated(Memory memory, String previousContent, String reason, double similarity)
            implements MemoryChange {}

    /** A new memory replacing {@code old}, which is now superseded. */
    record Superseded(Memory memory, Memory old, String reason, double similarity)
            implements MemoryChange {}

    /**
     * {@code memory}, unchanged, is no longer to be presented as current: a later turn of its
     * speaker's, stored as the excerpt {@code by} (of the turns {@code byTurns}), names its value
     * ({@code word}) beside words of change, in words no reader gives the new value from. Written
     * to the truth only (no document changes).
     */
    record Contradicted(
            Memory memory,
            java.util.UUID by,
            java.util.List<String> byTurns,
            String word,
            String reason,
            double similarity)
            implements MemoryChange {

        /** The turns of the excerpt that told the change, not the old statement's. */
        @Override
        public java.util.List<String> toldIn() {
            return byTurns;
        }
    }

    /** The same fact again: the existing memory gains the new source turns. */
    record Reinforced(Memory memory, String reason, double similarity) implements MemoryChange {}

    /** The turns that told this change: those of its memory, unless a kind says otherwise. */
    default java.util.List<String> toldIn() {
        return memory().sourceTurnIds();
    }

    default Optional<Memory> replaced() {
        return this instanceof Superseded s ? Optional.of(s.old()) : Optional.empty();
    }
}
