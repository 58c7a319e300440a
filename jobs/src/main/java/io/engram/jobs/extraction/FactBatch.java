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
