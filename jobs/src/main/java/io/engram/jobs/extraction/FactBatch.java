package io.engram.jobs.extraction;

import io.engram.memory.Scope;

/**
 * The facts extracted from one window (and the session summary, at session end), or the reason
 * extraction failed. Flink POJO.
 */
public class FactBatch {
    public String tenantId;
    public String projectId;
    public String environment;
    public String userId;
    public String sessionId;
    public FactRecord[] facts = new FactRecord[0];
    public String failureKind;
    public String failureReason;
    public String[] turnIds = new String[0];
    public int promptTokens;
    public int completionTokens;
    public boolean llm;

    /** Not facts: the user was forgotten and the dedup state must be dropped. */
    public boolean forgetUser;

    public FactBatch() {}

    public static FactBatch forWindow(WindowBatch w) {
        FactBatch b = new FactBatch();
        b.tenantId = w.tenantId;
        b.projectId = w.projectId;
        b.environment = w.environment;
        b.userId = w.userId;
        b.sessionId = w.sessionId;
        b.turnIds = java.util.Arrays.stream(w.turns).map(t -> t.turnId).toArray(String[]::new);
        return b;
    }

    /** The notice that a user was forgotten, on its way to the dedup state. */
    public static FactBatch forgetting(TurnRecord notice) {
        FactBatch b = new FactBatch();
        b.tenantId = notice.tenantId;
        b.projectId = notice.projectId;
        b.environment = notice.environment;
        b.userId = notice.userId;
        b.sessionId = notice.sessionId;
        b.forgetUser = true;
        return b;
    }

    public boolean failed() {
        return failureKind != null;
    }

    public Scope scope() {
        return new Scope(tenantId, projectId, environment, userId);
    }

    public String userKey() {
        return tenantId + "/" + projectId + "/" + environment + "/" + userId;
    }
}
