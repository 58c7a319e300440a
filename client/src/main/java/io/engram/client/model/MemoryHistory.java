package io.engram.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A memory, the versions it superseded, and its change events. */
public record MemoryHistory(Memory memory, List<Memory> versions, List<Event> events) {

    /** One change: its kind (created, updated, superseded, recalled, …), version and details. */
    public record Event(
            String memoryId,
            String kind,
            Integer version,
            Map<String, Object> detail,
            Instant at) {}
}
