package io.engram.jobs.maintenance;

import io.engram.memory.Scope;
import io.engram.ranking.RankCandidate;
import io.engram.ranking.Ranker;
import io.engram.ranking.RankingSettings;
import io.engram.ranking.RankingWeights;
import io.engram.ranking.ScoreBreakdown;
import io.engram.store.Archives;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.IndexedVectors;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Quotas: a user over the per-user maximum of current memories keeps the most valuable ones; the
 * rest, lowest value first by the ranking signals other than similarity, move to the archive.
 * Explicitly stored memories younger than the protection period are never evicted.
 */
public final class QuotaTask implements MaintenanceTask {

    /** A current memory and its value; protected ones are never evicted. */
    record Candidate(UUID id, double value, boolean protectedExplicit, Instant createdAt) {}

    @Override
    public void run(TaskContext ctx) throws SQLException {
        int quota = ctx.settings().jobs().quotaPerUser();
        List<Scope> over = new ArrayList<>();
        try (PreparedStatement st =
                ctx.read()
                        .prepareStatement(
                                "select tenant_id, project_id, environment, user_id from memories"
                                        + " where status = 'active' and "
                                        + ctx.scopeFilter()
                                        + " group by tenant_id, project_id, environment, user_id"
                                        + " having count(*) > ?")) {
            int next = ctx.bindScope(st, 1);
            st.setInt(next, quota);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    over.add(MemoryRows.scope(rs));
                }
            }
        }
        ctx.count("users_over_quota", over.size());
        for (Scope user : over) {
            evict(ctx, user, quota);
        }
    }

    /** The value of a memory for keeping: the ranking formula without the query similarity. */
    static double value(RankCandidate c, Instant asOf) {
        RankingWeights w = RankingSettings.DEFAULT.weights();
        ScoreBreakdown s = Ranker.signals(c, asOf, RankingSettings.DEFAULT);
        return w.recency() * s.recency()
                + w.importance() * s.importance()
                + w.usage() * s.usage()
                + w.quality() * s.quality()
                + w.consistency() * s.consistency()
                + w.decay() * s.decay();
    }

    /** The memories to evict so that at most {@code quota} remain, lowest value first. */
    static List<UUID> choose(List<Candidate> current, int quota) {
        int excess = current.size() - quota;
        if (excess <= 0) {
            return List.of();
        }
        List<Candidate> evictable = new ArrayList<>();
        for (Candidate c : current) {
            if (!c.protectedExplicit()) {
                evictable.add(c);
            }
        }
        evictable.sort(
                Comparator.comparingDouble(Candidate::value)
                        .thenComparing(Candidate::createdAt)
                        .thenComparing(Candidate::id));
        List<UUID> out = new ArrayList<>();
        for (int i = 0; i < Math.min(excess, evictable.size()); i++) {
            out.add(evictable.get(i).id());
        }
        return out;
    }

    private void evict(TaskContext ctx, Scope scope, int quota) throws SQLException {
        Instant protectedSince =
                ctx.asOf().minus(Duration.ofDays(ctx.settings().jobs().quotaProtectExplicitDays()));
        List<Candidate> current = new ArrayList<>();
        try (PreparedStatement st =
                ctx.read()
                        .prepareStatement(
                                "select id, source, created_at, importance, usage_count, quality_score,"
                                        + " consistency_score, decay_score,"
                                        + " valid_from from memories"
                                        + " where tenant_id = ? and project_id = ? and environment = ?"
                                        + " and user_id = ? and status = 'active'")) {
            MemoryEvents.bindScope(st, 1, scope);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    UUID id = rs.getObject("id", UUID.class);
                    Instant created = MemoryRows.instant(rs, "created_at");
                    RankCandidate c =
                            new RankCandidate(
                                    id.toString(),
                                    0,
                                    MemoryRows.instant(rs, "valid_from"),
                                    rs.getDouble("importance"),
                                    rs.getLong("usage_count"),
                                    rs.getDouble("quality_score"),
                                    rs.getDouble("consistency_score"),
                                    rs.getDouble("decay_score"));
                    boolean explicit =
                            rs.getString("source").equals("api") && created.isAfter(protectedSince);
                    current.add(new Candidate(id, value(c, ctx.asOf()), explicit, created));
                }
            }
        }
        ctx.count("scanned", current.size());
        List<UUID> evict = choose(current, quota);
        if (evict.isEmpty()) {
            return;
        }
        Map<UUID, float[]> vectors =
                IndexedVectors.fetch(ctx.openSearch(), ctx.alias(), scope, evict);
        List<Archives.Archived> archived =
                ctx.transaction(c -> Archives.archive(c, evict, vectors, null, "quota"));
        List<BulkOperation> lines = new ArrayList<>();
        for (Archives.Archived a : archived) {
            lines.add(MemoryDocuments.delete(ctx.alias(), a.id().toString(), scope.routing()));
        }
        ctx.index(lines, "false");
        ctx.bump(List.of(scope));
        ctx.count("evicted", archived.size());
    }
}
