package io.engram.events;

import java.time.Instant;

/**
 * A record on the {@code engram.turns} topic: a chat turn, the explicit end of a session, or the
 * notice that a user was forgotten.
 */
public sealed interface ChatEvent permits TurnEvent, SessionEndEvent, ForgetUserEvent {

    int SCHEMA_VERSION = 1;

    String eventId();

    String tenantId();

    String projectId();

    String environment();

    String userId();

    String sessionId();

    Instant ts();

    /** The Kafka key: {@code tenant/user/session}, so a session stays in one partition. */
    default String key() {
        return tenantId() + "/" + userId() + "/" + sessionId();
    }
}
