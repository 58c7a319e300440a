package io.engram.jobs.extraction;

import io.engram.events.ChatEvent;
import io.engram.events.ForgetUserEvent;
import io.engram.events.Role;
import io.engram.events.TurnEvent;
import io.engram.extraction.ConversationTurn;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;

/**
 * A validated event of the turns topic: a turn, or the end of a session ({@code sessionEnd} with no
 * turn fields). Flink POJO.
 */
public class TurnRecord {
    public String tenantId;
    public String projectId;
    public String environment;
    public String userId;
    public String sessionId;
    public boolean sessionEnd;

    /**
     * The user was forgotten: not a turn, a notice for the session windows and the dedup state
     * ({@code projectId} {@link ForgetUserEvent#ALL_PROJECTS}: in every project).
     */
    public boolean forgetUser;

    public String turnId;
    public Role role;
    public String speaker;
    public String content;
    public Instant ts;

    /**
     * When the record was sent to the topic (its Kafka timestamp, epoch ms; -1 when unknown). A
     * forget applies to everything sent before it, whatever order the job reads them in.
     */
    public long sentAt = -1;

    public TurnRecord() {}

    public static TurnRecord of(ChatEvent event) {
        TurnRecord r = new TurnRecord();
        r.tenantId = event.tenantId();
        r.projectId = event.projectId();
        r.environment = event.environment();
        r.userId = event.userId();
        r.sessionId = event.sessionId();
        r.ts = event.ts();
        if (event instanceof ForgetUserEvent) {
            r.forgetUser = true;
        } else if (event instanceof TurnEvent t) {
            r.turnId = t.turnId();
            r.role = t.role();
            r.speaker = t.speaker().orElse(null);
            r.content = t.content();
        } else {
            r.sessionEnd = true;
        }
        return r;
    }

    /** Key of the session window: tenant, project, environment, user, session. */
    public String sessionKey() {
        return sessionKeyPrefix() + sessionId;
    }

    /**
     * What the session keys of this record's user in its project start with; for a forget of every
     * project, the key its notice is kept under.
     */
    public String sessionKeyPrefix() {
        return keyPrefix(tenantId, projectId, environment, userId);
    }

    /** What the session keys of a user in a project start with. */
    private static String keyPrefix(
            String tenant, String project, String environment, String user) {
        return tenant + "/" + project + "/" + environment + "/" + user + "/";
    }

    /** A forget notice that covers every project of its tenant and environment. */
    public boolean forgetsAllProjects() {
        return forgetUser && ForgetUserEvent.ALL_PROJECTS.equals(projectId);
    }

    /**
     * Whether this forget notice covers {@code key}: a session key (tenant/project/environment/
     * user/session) or a user key (tenant/project/environment/user); ids never contain a slash.
     */
    public boolean covers(String key) {
        String[] parts = key.split("/", 5);
        return parts.length >= 4
                && parts[0].equals(tenantId)
                && (forgetsAllProjects() || parts[1].equals(projectId))
                && parts[2].equals(environment)
                && parts[3].equals(userId);
    }

    /**
     * Keeps when the notice's user was forgotten in {@code forgotten} (a broadcast state keyed by
     * {@link #sessionKeyPrefix()}), and drops entries older than {@link
     * SessionWindowFunction#FORGET_HORIZON} before it. A notice of unknown time is not kept.
     */
    public void rememberIn(BroadcastState<String, Long> forgotten) throws Exception {
        if (sentAt < 0) {
            return;
        }
        String prefix = sessionKeyPrefix();
        forgotten.put(prefix, forgottenAt(forgotten.get(prefix), sentAt));
        long horizon = sentAt - SessionWindowFunction.FORGET_HORIZON.toMillis();
        List<String> expired = new ArrayList<>();
        for (var e : forgotten.entries()) {
            if (e.getValue() < horizon) {
                expired.add(e.getKey());
            }
        }
        for (String key : expired) {
            forgotten.remove(key);
        }
    }

    /**
     * Whether something of the user sent at {@code sentAt} was sent before (or with) a forget of
     * the user in {@code project} or in every project, as kept in {@code forgotten} by {@link
     * #rememberIn}.
     */
    public static boolean sentBeforeForget(
            ReadOnlyBroadcastState<String, Long> forgotten,
            long sentAt,
            String tenant,
            String project,
            String environment,
            String user)
            throws Exception {
        return sentBefore(sentAt, forgotten.get(keyPrefix(tenant, project, environment, user)))
                || sentBefore(
                        sentAt,
                        forgotten.get(
                                keyPrefix(
                                        tenant, ForgetUserEvent.ALL_PROJECTS, environment, user)));
    }

    /**
     * Whether this record was sent before (or with) a forget sent at {@code forgottenAt}, which may
     * be null. A record of unknown time is not held against the user.
     */
    public static boolean sentBefore(long sentAt, Long forgottenAt) {
        return forgottenAt != null && sentAt >= 0 && sentAt <= forgottenAt;
    }

    /**
     * When a user counts as forgotten after a notice sent at {@code noticeSentAt}: the later of
     * that and {@code before} (either may be unknown: null, or -1 for the notice).
     */
    public static Long forgottenAt(Long before, long noticeSentAt) {
        if (noticeSentAt < 0) {
            return before;
        }
        return before == null ? noticeSentAt : Math.max(before, noticeSentAt);
    }

    public Scope scope() {
        return new Scope(tenantId, projectId, environment, userId);
    }

    public ConversationTurn toTurn() {
        return new ConversationTurn(turnId, role, Optional.ofNullable(speaker), content, ts);
    }
}
