package io.engram.memory;

import java.util.Locale;

/** Lifecycle of a memory; only {@link #ACTIVE} memories are current facts. */
public enum MemoryStatus {
    ACTIVE,
    SUPERSEDED,
    ARCHIVED,
    EXPIRED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
