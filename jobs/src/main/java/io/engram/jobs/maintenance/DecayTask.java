package io.engram.jobs.maintenance;

import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Decay and tiers: for every current memory, the decay score from the days since its last recall,
 * the usage percentile within its tenant, and the tier; only what changed is written, tier moves
 * also to the index and as {@code tier} events.
 */
public final class DecayTask implements MaintenanceTask {

    private static final int BATCH = 5_000;

    private static final String UPDATE =
            "update memories m set decay_score = u.decay, usage_percentile = u.pct, tier = u.tier"
                    + " from unnest(?::uuid[], ?::real[], ?::real[], ?::text[]) as u(id, decay, pct, tier)"
                    + " where m.id = u.id and m.status = 'active'";

    /** Usage percentiles of one tenant: the share of its memories used less, plus half the ties. */
    static final class Percentiles {
        private final TreeMap<Long, long[]> below = new TreeMap<>();
        private long total;

        void add(long usage, long count) {
            below.put(usage, new long[] {count, 0});
            total += count;
        }

        void seal() {
            long running = 0;
            for (long[] v : below.values()) {
                v[1] = running;
                running += v[0];
            }
        }

        double of(long usage) {
            long[] v = below.get(usage);
            if (v == null || total == 0) {
                return 0;
            }
            return Math.round((v[1] + v[0] / 2.0) / total * 100) / 100.0;
        }
    }

    private record Change(
            UUID id, Scope scope, int version, double decay, double pct, Tier from, Tier to) {}

    @Override
    public void run(TaskContext ctx) throws SQLException {
        Map<String, Percentiles> percentiles = percentiles(ctx);
        DecayPolicy policy = ctx.settings().decayPolicy();
        Instant asOf = ctx.asOf();
        List<Change> pending = new ArrayList<>();
        try (PreparedStatement scan =
                ctx.read()
                        .prepareStatement(
                                "select id, tenant_id, project_id, environment, user_id, importance,"
                                        + " usage_count, coalesce(last_accessed_at, created_at) as last_use,"
                                        + " decay_score, usage_percentile, tier, version from memories"
                                        + " where status = 'active' and "
                                        + ctx.scopeFilter())) {
            scan.setFetchSize(BATCH);
            ctx.bindScope(scan, 1);
            try (ResultSet rs = scan.executeQuery()) {
                while (rs.next()) {
                    ctx.count("scanned", 1);
                    double importance = rs.getDouble("importance");
                    long idle = DecayPolicy.idleDays(MemoryRows.instant(rs, "last_use"), asOf);
                    double decay = policy.decay(idle, importance);
                    Percentiles p = percentiles.get(rs.getString("tenant_id"));
                    double pct = p == null ? 0 : p.of(rs.getLong("usage_count"));
                    Tier from = Tier.valueOf(rs.getString("tier").toUpperCase(Locale.ROOT));
                    Tier to = policy.tier(idle, importance);
                    boolean changed =
                            Math.abs(decay - rs.getDouble("decay_score")) >= 0.0005
                                    || Math.abs(pct - rs.getDouble("usage_percentile")) >= 0.005
                                    || from != to;
                    if (changed) {
                        pending.add(
                                new Change(
                                        rs.getObject("id", UUID.class),
                                        MemoryRows.scope(rs),
                                        rs.getInt("version"),
                                        decay,
                                        pct,
                                        from,
                                        to));
                        if (pending.size() >= BATCH) {
                            write(ctx, pending);
                        }
                    }
                }
            }
        }
        write(ctx, pending);
    }

    private static Map<String, Percentiles> percentiles(TaskContext ctx) throws SQLException {
        Map<String, Percentiles> out = new HashMap<>();
        String sql =
                "select tenant_id, usage_count, count(*) from memories where status = 'active'"
                        + (ctx.tenant() == null ? "" : " and tenant_id = ?")
                        + " group by tenant_id, usage_count";
        try (PreparedStatement st = ctx.write().prepareStatement(sql)) {
            if (ctx.tenant() != null) {
                st.setString(1, ctx.tenant());
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1), t -> new Percentiles())
                            .add(rs.getLong(2), rs.getLong(3));
                }
            }
        }
        out.values().forEach(Percentiles::seal);
        return out;
    }

    private static void write(TaskContext ctx, List<Change> changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        Set<Scope> moved = new LinkedHashSet<>();
        ctx.transaction(
                c -> {
                    List<BulkOperation> lines = new ArrayList<>();
                    try (PreparedStatement update = c.prepareStatement(UPDATE);
                            PreparedStatement event = c.prepareStatement(MemoryEvents.INSERT)) {
                        int n = changes.size();
                        UUID[] ids = new UUID[n];
                        Float[] decays = new Float[n];
                        Float[] pcts = new Float[n];
                        String[] tiers = new String[n];
                        for (int i = 0; i < n; i++) {
                            Change ch = changes.get(i);
                            ids[i] = ch.id();
                            decays[i] = (float) ch.decay();
                            pcts[i] = (float) ch.pct();
                            tiers[i] = ch.to().wireName();
                            if (ch.from() != ch.to()) {
                                MemoryEvents.bind(
                                        event,
                                        ch.id(),
                                        ch.scope(),
                                        "tier",
                                        ch.version(),
                                        null,
                                        "{\"from\":\""
                                                + ch.from().wireName()
                                                + "\",\"to\":\""
                                                + tiers[i]
                                                + "\"}");
                                event.addBatch();
                                lines.add(
                                        MemoryDocuments.tier(
                                                ctx.alias(),
                                                ch.id().toString(),
                                                ch.scope().routing(),
                                                tiers[i]));
                                moved.add(ch.scope());
                                ctx.count("tier_" + tiers[i], 1);
                            }
                        }
                        update.setArray(1, c.createArrayOf("uuid", ids));
                        update.setArray(2, c.createArrayOf("float4", decays));
                        update.setArray(3, c.createArrayOf("float4", pcts));
                        update.setArray(4, c.createArrayOf("text", tiers));
                        ctx.count("updated", update.executeUpdate());
                        event.executeBatch();
                    }
                    // The index before the commit: if it fails, nothing is committed and the next
                    // run tries again.
                    ctx.index(lines, "false");
                    return null;
                });
        ctx.bump(moved);
        changes.clear();
    }
}
