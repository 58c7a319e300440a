package io.engram.client.model;

import java.util.List;

/** Turns of one session of one user ({@code POST /v1/turns}); {@code endSession} closes it. */
public record TurnBatch(
        String userId, String sessionId, String projectId, Boolean endSession, List<Turn> turns) {

    public static TurnBatch of(String userId, String sessionId, List<Turn> turns) {
        return new TurnBatch(userId, sessionId, null, null, turns);
    }

    public TurnBatch endingSession() {
        return new TurnBatch(userId, sessionId, projectId, true, turns);
    }

    public TurnBatch inProject(String project) {
        return new TurnBatch(userId, sessionId, project, endSession, turns);
    }
}
