package io.engram.events;

import java.time.Instant;

/** The explicit end of a session: flushes its window and triggers the episodic summary. */
public record SessionEndEvent(
        String eventId,
        String tenantId,
        String projectId,
        String environment,
        String userId,
        String sessionId,
        Instant ts)
        implements ChatEvent {}
