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
        double importance) {}
