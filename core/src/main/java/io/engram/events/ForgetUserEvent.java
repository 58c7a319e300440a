package io.engram.events;

import java.time.Instant;

/**
 * A user was forgotten in one project, or in every project of the tenant and environment ({@code
 * projectId} {@link #ALL_PROJECTS}; {@code project_id} absent on the wire): the write plane drops
 * whatever it still holds for that user (open sessions, dedup state), so nothing sent before the
 * forget becomes a memory and nothing forgotten is decided against again.
 */
public record ForgetUserEvent(
        String eventId,
        String tenantId,
        String projectId,
        String environment,
        String userId,
        Instant ts)
        implements ChatEvent {

    /** The project of a notice that covers all of them; never a valid project id. */
    public static final String ALL_PROJECTS = "*";

    public boolean allProjects() {
        return ALL_PROJECTS.equals(projectId);
    }

    /** Not tied to a session; the key still groups the user's events. */
    @Override
    public String sessionId() {
        return "-";
    }
}
