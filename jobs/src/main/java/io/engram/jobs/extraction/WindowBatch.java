package io.engram.jobs.extraction;

import io.engram.extraction.ConversationTurn;
import io.engram.extraction.ExtractionWindow;
import io.engram.memory.Scope;
import java.util.Arrays;
import java.util.List;

/**
 * Turns of one session to extract from: every N turns, and at the end of a session. {@code context}
 * holds the overlap with the previous batch; {@code sessionTurns} is set at session end for the
 * summary. Flink POJO.
 */
public class WindowBatch {
    public String tenantId;
    public String projectId;
    public String environment;
    public String userId;
    public String sessionId;
    public boolean sessionEnd;
    public String endReason;
    public TurnRecord[] context = new TurnRecord[0];
    public TurnRecord[] turns = new TurnRecord[0];
    public TurnRecord[] sessionTurns = new TurnRecord[0];

    public WindowBatch() {}

    public Scope scope() {
        return new Scope(tenantId, projectId, environment, userId);
    }

    /** When the newest turn of the batch (context and session included) was sent; -1 if unknown. */
    public long sentAt() {
        long newest = -1;
        for (TurnRecord[] part : new TurnRecord[][] {context, turns, sessionTurns}) {
            for (TurnRecord t : part) {
                newest = Math.max(newest, t.sentAt);
            }
        }
        return newest;
    }

    /**
     * When the newest turn of the batch was said (its own timestamp, epoch ms), not when it reached
     * the topic; -1 if the batch has no turn.
     */
    public long saidAt() {
        long newest = -1;
        for (TurnRecord[] part : new TurnRecord[][] {context, turns, sessionTurns}) {
            for (TurnRecord t : part) {
                if (t.ts != null) {
                    newest = Math.max(newest, t.ts.toEpochMilli());
                }
            }
        }
        return newest;
    }

    public String userKey() {
        return tenantId + "/" + projectId + "/" + environment + "/" + userId;
    }

    public ExtractionWindow toWindow() {
        return new ExtractionWindow(sessionId, turns(context), turns(turns), sessionEnd);
    }

    static List<ConversationTurn> turns(TurnRecord[] records) {
        return Arrays.stream(records).map(TurnRecord::toTurn).toList();
    }
}
