package io.engram.memory;

import java.util.Locale;

/** What kind of thing a memory records. */
public enum MemoryType {
    /** A fact about the user or the world ("Alice's budget for the Hawaii trip is $10,000"). */
    SEMANTIC,
    /** Something that happened, with its time (a session summary, an event). */
    EPISODIC,
    /** How to do something: steps, preferences about procedure. */
    PROCEDURAL,
    /** A person and their relation to the user. */
    SOCIAL;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the lower-case wire name; throws naming the accepted values. */
    public static MemoryType fromWire(String value) {
        for (MemoryType t : values()) {
            if (t.wireName().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException(
                "unknown memory type '"
                        + value
                        + "'; expected semantic, episodic, procedural or social");
    }
}
