package io.engram.jobs.maintenance;

import io.engram.memory.Memory;
import io.engram.memory.MemoryStatus;
import io.engram.memory.Scope;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Brings the index back in line with PostgreSQL after failed runs. Consolidation and quotas write
 * the index after their PostgreSQL commits, and a reindex switches the alias before its last
 * catch-up; a run that fails in between (OpenSearch still refusing after the waits of {@link
 * TaskContext#index}, its runner killed) leaves the index behind: a folded memory missing from it,
 * an archived one still in it. Before its own job, each run writes again, from their rows, the
 * memories of every failed and not yet repaired run's tenant (all, for a run of every tenant) whose
 * row changed while that run ran, from a minute before its start (a row's {@code updated_at} is its
 * transaction's start) to its end: current and superseded ones are indexed anew, re-embedded with
 * the configured model; the others (archived, expired) are removed, unless they are current again
 * when their delete is sent (brought back from the archive meanwhile). A memory changed since by
 * the write plane has a newer {@code updated_at} and was indexed by that write, and an older write
 * never replaces a newer one (external versions). The scan reads the whole table once ({@code
 * updated_at} is not indexed, so that updates stay in place), which a failure, not every run, pays.
 */
final class IndexRepair {

    private static final int BATCH = 64;

    private static final String CHANGED_DURING_FAILED_RUNS =
            "select "
                    + MemoryRows.COLUMNS
                    + " from memories m where exists (select 1 from maintenance_runs r"
                    + " where r.id = any(?) and (r.tenant_id is null or r.tenant_id = m.tenant_id)"
                    + " and m.updated_at >= r.started_at - interval '1 minute'"
                    + " and m.updated_at <= r.finished_at)";

    /** What a repair did: after which failed runs, how many memories it indexed and removed. */
    record Outcome(List<UUID> runs, long indexed, long removed) {

        String note() {
            return "index repaired after failed run(s) "
                    + runs
                    + ": "
                    + indexed
                    + " memories indexed again, "
                    + removed
                    + " removed";
        }
    }

    private IndexRepair() {}

    /** Repairs after every failed run not repaired yet; empty runs when there was none. */
    static Outcome run(MaintenanceSettings settings) throws SQLException {
        List<UUID> runs;
        try (Connection c = TaskContext.connect(settings)) {
            runs = MaintenanceRuns.unrepaired(c);
        }
        if (runs.isEmpty()) {
            return new Outcome(runs, 0, 0);
        }
        long indexed = 0;
        long removed = 0;
        try (TaskContext ctx = new TaskContext(settings, Instant.now(), null, 0, 1)) {
            List<Memory> current = new ArrayList<>();
            Map<String, String> gone = new LinkedHashMap<>(); // id -> routing
            Set<Scope> touched = new LinkedHashSet<>();
            try (PreparedStatement scan = ctx.read().prepareStatement(CHANGED_DURING_FAILED_RUNS)) {
                scan.setFetchSize(1000);
                scan.setArray(1, ctx.read().createArrayOf("uuid", runs.toArray()));
                try (ResultSet rs = scan.executeQuery()) {
                    while (rs.next()) {
                        Memory m = MemoryRows.read(rs, null);
                        touched.add(m.scope());
                        if (m.status() == MemoryStatus.ACTIVE
                                || m.status() == MemoryStatus.SUPERSEDED) {
                            current.add(m);
                            indexed++;
                        } else {
                            gone.put(m.id().toString(), m.scope().routing());
                        }
                        if (current.size() >= BATCH) {
                            ctx.index(ReindexTask.indexLines(ctx, ctx.alias(), current), "false");
                            current.clear();
                        }
                        if (gone.size() >= BATCH) {
                            removed += remove(ctx, gone);
                        }
                    }
                }
            }
            if (!current.isEmpty()) {
                ctx.index(ReindexTask.indexLines(ctx, ctx.alias(), current), "false");
            }
            removed += remove(ctx, gone);
            // Recall answers cached while the index was behind are computed again.
            ctx.bump(touched);
        }
        try (Connection c = TaskContext.connect(settings)) {
            MaintenanceRuns.markRepaired(c, runs);
        }
        return new Outcome(runs, indexed, removed);
    }

    /**
     * Removes the documents of {@code gone} whose row is still not current: one brought back from
     * the archive since it was read stays. Returns how many were removed.
     */
    private static int remove(TaskContext ctx, Map<String, String> gone) throws SQLException {
        if (gone.isEmpty()) {
            return 0;
        }
        Set<String> current = StaleDocuments.current(ctx.write(), gone.keySet());
        List<BulkOperation> lines = new ArrayList<>();
        int removed = 0;
        for (Map.Entry<String, String> e : gone.entrySet()) {
            if (!current.contains(e.getKey())) {
                lines.add(MemoryDocuments.delete(ctx.alias(), e.getKey(), e.getValue()));
                removed++;
            }
        }
        ctx.index(lines, "false");
        gone.clear();
        return removed;
    }
}
