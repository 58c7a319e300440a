package io.engram.jobs.extraction;

import io.engram.events.DeadLetter;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Dead letters of the stages after parsing. A stage that cannot process a record sends it to the
 * dead-letter output and goes on with the next one; a failing dependency is not a dead letter (the
 * job restarts from its last checkpoint and the work is replayed).
 */
public final class StageLetters {

    private StageLetters() {}

    /** A turn (or session end) the session windows could not take. */
    static byte[] forTurn(TurnRecord t, Throwable error) {
        return DeadLetter.ofStage(
                "window_failure",
                "session windows failed: " + describe(error),
                new Scope(t.tenantId, t.projectId, t.environment, t.userId),
                t.sessionId,
                t.turnId == null ? List.of() : List.of(t.turnId),
                Instant.now());
    }

    /** A batch of facts a stage (extraction, embedding, dedup) could not process. */
    static byte[] forBatch(String kind, String reason, FactBatch b) {
        return DeadLetter.ofStage(
                kind, reason, b.scope(), b.sessionId, Arrays.asList(b.turnIds), Instant.now());
    }

    /** The exception's class and first message line, never a stack. */
    public static String describe(Throwable error) {
        String message = String.valueOf(error.getMessage());
        int nl = message.indexOf('\n');
        return error.getClass().getSimpleName()
                + ": "
                + (nl < 0 ? message : message.substring(0, nl));
    }
}
