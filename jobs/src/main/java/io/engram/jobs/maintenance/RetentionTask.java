package io.engram.jobs.maintenance;

import io.engram.memory.Scope;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Retention: a memory older than its rule's keep period is expired (it leaves the index, stays in
 * PostgreSQL as history); after the grace period on top it is deleted from PostgreSQL too. Both are
 * decided from the run's clock and the memory's creation time, so a repeated run changes nothing.
 */
public final class RetentionTask implements MaintenanceTask {

    private static final int BATCH = 1000;

    private record Action(UUID id, Scope scope, boolean delete, String status) {}

    @Override
    public void run(TaskContext ctx) throws SQLException {
        RetentionRules rules = RetentionRules.load(ctx.write(), ctx.tenant());
        if (rules.isEmpty()) {
            return;
        }
        List<Action> pending = new ArrayList<>();
        try (PreparedStatement scan =
                ctx.read()
                        .prepareStatement(
                                "select id, tenant_id, project_id, environment, user_id, type, status, created_at"
                                        + " from memories where status in ('active', 'superseded', 'expired')"
                                        + " and tenant_id = any(?) and "
                                        + ctx.scopeFilter())) {
            scan.setFetchSize(5000);
            scan.setArray(
                    1, ctx.read().createArrayOf("text", rules.tenants().toArray(new String[0])));
            ctx.bindScope(scan, 2);
            try (ResultSet rs = scan.executeQuery()) {
                while (rs.next()) {
                    ctx.count("scanned", 1);
                    RetentionRules.Rule rule =
                            rules.resolve(
                                    rs.getString("tenant_id"),
                                    rs.getString("project_id"),
                                    rs.getString("type"));
                    if (rule.keepDays().isEmpty()) {
                        continue;
                    }
                    Instant expires =
                            MemoryRows.instant(rs, "created_at")
                                    .plus(Duration.ofDays(rule.keepDays().get()));
                    Instant gone = expires.plus(Duration.ofDays(rule.graceDays()));
                    String status = rs.getString("status");
                    boolean delete = !ctx.asOf().isBefore(gone);
                    boolean expire = !ctx.asOf().isBefore(expires) && !status.equals("expired");
                    if (delete || expire) {
                        pending.add(
                                new Action(
                                        rs.getObject("id", UUID.class),
                                        MemoryRows.scope(rs),
                                        delete,
                                        status));
                        if (pending.size() >= BATCH) {
                            apply(ctx, pending);
                        }
                    }
                }
            }
        }
        apply(ctx, pending);
    }

    private static void apply(TaskContext ctx, List<Action> actions) throws SQLException {
        if (actions.isEmpty()) {
            return;
        }
        Set<Scope> touched = new LinkedHashSet<>();
        ctx.transaction(
                c -> {
                    List<BulkOperation> lines = new ArrayList<>();
                    try (PreparedStatement expire =
                                    c.prepareStatement(
                                            "update memories set status = 'expired', version = version + 1,"
                                                    + " updated_at = now() where id = ? and status = ? returning version");
                            PreparedStatement delete =
                                    c.prepareStatement(
                                            "delete from memories where id = ? and status = ? returning version");
                            PreparedStatement event = c.prepareStatement(MemoryEvents.INSERT)) {
                        for (Action a : actions) {
                            PreparedStatement st = a.delete() ? delete : expire;
                            st.setObject(1, a.id());
                            st.setString(2, a.status());
                            try (ResultSet rs = st.executeQuery()) {
                                if (!rs.next()) {
                                    continue;
                                }
                                String kind = a.delete() ? "delete" : "expire";
                                MemoryEvents.bind(
                                        event,
                                        a.id(),
                                        a.scope(),
                                        kind,
                                        rs.getInt(1),
                                        a.id() + ":" + kind,
                                        "{\"reason\":\"retention\"}");
                                event.executeUpdate();
                                ctx.count(a.delete() ? "deleted" : "expired", 1);
                                lines.add(
                                        MemoryDocuments.delete(
                                                ctx.alias(),
                                                a.id().toString(),
                                                a.scope().routing()));
                                touched.add(a.scope());
                            }
                        }
                    }
                    ctx.index(lines, "false");
                    return null;
                });
        ctx.bump(touched);
        actions.clear();
    }
}
