package io.engram.events;

import java.time.Instant;

/**
 * A user's memories were forgotten in one project: the write plane drops whatever it still holds
 * for that user (dedup state), so nothing forgotten is decided against again.
 */
public record ForgetUserEvent(
        String eventId,
        String tenantId,
        String projectId,
        String environment,
        String userId,
        Instant ts)
        implements ChatEvent {

    /** Not tied to a session; the key still groups the user's events. */
    @Override
    public String sessionId() {
        return "-";
    }
}
