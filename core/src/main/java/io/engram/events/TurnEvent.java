package io.engram.events;

import java.time.Instant;
import java.util.Optional;

/** One turn of a conversation. */
public record TurnEvent(
        String eventId,
        String tenantId,
        String projectId,
        String environment,
        String userId,
        String sessionId,
        String turnId,
        Role role,
        Optional<String> speaker,
        String content,
        Instant ts)
        implements ChatEvent {}
