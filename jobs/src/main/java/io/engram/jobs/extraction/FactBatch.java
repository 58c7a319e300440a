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

    /** When the newest of the window's turns was sent; -1 when unknown. */
    public long sentAt = -1;

    /** When the newest of the window's turns was said (its own timestamp); -1 when unknown. */
    public long saidAt = -1;

    public FactBatch() {}

    private static FactBatch of(
            String tenant, String project, String environment, String user, String session) {
        FactBatch b = new FactBatch();
        b.tenantId = tenant;
        b.projectId = project;
        b.environment = environment;
        b.userId = user;
        b.sessionId = session;
        return b;
    }

    public static FactBatch forWindow(WindowBatch w) {
        FactBatch b = of(w.tenantId, w.projectId, w.environment, w.userId, w.sessionId);
        b.turnIds = java.util.Arrays.stream(w.turns).map(t -> t.turnId).toArray(String[]::new);
        b.sentAt = w.sentAt();
        b.saidAt = w.saidAt();
        return b;
    }

    /** The notice that a user was forgotten, on its way to the dedup state. */
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
