package io.engram.events;

import java.util.Locale;

/** Who spoke a turn. */
public enum Role {
    USER,
    ASSISTANT,
    SYSTEM,
    TOOL;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role for a wire name, or null when there is none. */
    static Role fromWire(String value) {
        for (Role r : values()) {
            if (r.wireName().equals(value)) {
                return r;
            }
        }
        return null;
    }
}
