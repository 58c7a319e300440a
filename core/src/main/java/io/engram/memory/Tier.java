package io.engram.memory;

import java.util.Locale;

/** Storage temperature of a memory, moved by the decay-and-tiers job. */
public enum Tier {
    HOT,
    WARM,
    COLD;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
