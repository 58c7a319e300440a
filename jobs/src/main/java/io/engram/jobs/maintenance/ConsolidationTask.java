package io.engram.jobs.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.embedding.ModelSpec;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryStatus;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.store.Archives;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryRows;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.IndexedVectors;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Daily consolidation: per user, clusters of related current memories become one memory holding
 * every distinct fact; the originals move to the archive (restorable) and leave the index.
 */
public final class ConsolidationTask implements MaintenanceTask {

    /** The newest memories of a user considered in one run (pairwise similarity is quadratic). */
    static final int MAX_PER_USER = 2000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FLUSH_OPERATIONS = 1500;

    private final List<BulkOperation> indexLines = new ArrayList<>();
    private final Set<Scope> touched = new LinkedHashSet<>();

    private record Row(Memory memory, long usage, Instant lastAccess) {}

    @Override
    public void run(TaskContext ctx) throws Exception {
        List<Scope> users = new ArrayList<>();
        try (PreparedStatement st =
                ctx.read()
                        .prepareStatement(
                                "select tenant_id, project_id, environment, user_id from memories"
                                        + " where status = 'active' and type <> 'episodic'"
                                        // No longer current: never folded into what is.
                                        + " and contradicted_by is null and "
                                        + ctx.scopeFilter()
                                        + " group by tenant_id, project_id, environment, user_id"
                                        + " having count(*) >= 2")) {
            ctx.bindScope(st, 1);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    users.add(MemoryRows.scope(rs));
                }
            }
        }
        for (Scope user : users) {
            consolidate(ctx, user);
            if (indexLines.size() >= FLUSH_OPERATIONS) {
                flush(ctx);
            }
        }
        flush(ctx);
    }

    /**
     * Index writes of many folds in one bulk request that waits for the refresh, then the cache
     * invalidation of the users touched (a recall in between still finds the archived originals in
     * the index and drops them at hydration, as PostgreSQL says they are archived).
     */
    private void flush(TaskContext ctx) {
        ctx.index(indexLines, "wait_for");
        ctx.bump(touched);
        indexLines.clear();
        touched.clear();
    }

    private void consolidate(TaskContext ctx, Scope scope) throws SQLException {
        Map<UUID, Row> rows = new HashMap<>();
        List<UUID> ids = new ArrayList<>();
        try (PreparedStatement st =
                ctx.read()
                        .prepareStatement(
                                "select "
                                        + MemoryRows.COLUMNS
                                        + ", usage_count, last_accessed_at from memories where tenant_id = ?"
                                        + " and project_id = ? and environment = ? and user_id = ?"
                                        + " and status = 'active' and type <> 'episodic'"
                                        + " and contradicted_by is null"
                                        + " order by valid_from desc, id limit "
                                        + MAX_PER_USER)) {
            MemoryEvents.bindScope(st, 1, scope);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Memory m = MemoryRows.read(rs, null);
                    rows.put(
                            m.id(),
                            new Row(
                                    m,
                                    rs.getLong("usage_count"),
                                    MemoryRows.instant(rs, "last_accessed_at")));
                    ids.add(m.id());
                }
            }
        }
        ctx.count("scanned", ids.size());
        Map<UUID, float[]> vectors =
                IndexedVectors.fetch(ctx.openSearch(), ctx.alias(), scope, ids);
        List<Consolidator.Member> members = new ArrayList<>();
        for (UUID id : ids) {
            float[] v = vectors.get(id);
            if (v != null) {
                Memory m = rows.get(id).memory();
                members.add(
                        new Consolidator.Member(
                                id,
                                m.type(),
                                m.content(),
                                m.validFrom(),
                                v,
                                m.source().equals("consolidation")));
            }
        }
        List<List<Consolidator.Member>> clusters = new ArrayList<>();
        List<String> contents = new ArrayList<>();
        for (List<Consolidator.Member> cluster :
                Consolidator.clusters(
                        members,
                        // The setting is a similarity; the clusters are cut at its cosine.
                        ModelSpec.scaleOf(ctx.embedder().version())
                                .cosineAt(ctx.settings().jobs().consolidationSimilarity()))) {
            String content = Consolidator.fold(cluster);
            if (content.length() > Consolidator.MAX_CONTENT) {
                ctx.count("clusters_too_long", 1);
                continue;
            }
            clusters.add(cluster);
            contents.add(content);
        }
        if (clusters.isEmpty()) {
            return;
        }
        for (int i = 0; i < clusters.size(); i++) {
            // One text a call: a batch pads every text to the longest, which costs more here.
            float[] vector = ctx.embedder().embed(List.of(contents.get(i))).get(0);
            fold(ctx, scope, clusters.get(i), contents.get(i), vector, rows, vectors);
        }
    }

    private void fold(
            TaskContext ctx,
            Scope scope,
            List<Consolidator.Member> cluster,
            String content,
            float[] vector,
            Map<UUID, Row> rows,
            Map<UUID, float[]> vectors)
            throws SQLException {
        List<UUID> originals = new ArrayList<>();
        Set<String> tags = new LinkedHashSet<>();
        Set<String> sources = new LinkedHashSet<>();
        double importance = 0;
        long totalUsage = 0;
        Instant lastUse = null;
        Instant validFrom = Instant.EPOCH;
        for (Consolidator.Member member : cluster) {
            Row row = rows.get(member.id());
            originals.add(member.id());
            tags.addAll(row.memory().tags());
            sources.addAll(row.memory().sourceTurnIds());
            importance = Math.max(importance, row.memory().importance());
            totalUsage += row.usage();
            if (row.lastAccess() != null
                    && (lastUse == null || row.lastAccess().isAfter(lastUse))) {
                lastUse = row.lastAccess();
            }
            if (member.validFrom().isAfter(validFrom)) {
                validFrom = member.validFrom();
            }
        }
        UUID id = MemoryIds.fromConsolidation(scope, originals);
        Memory consolidated =
                new Memory(
                        id,
                        scope,
                        Optional.empty(),
                        cluster.get(0).type(),
                        content,
                        List.copyOf(tags),
                        "consolidation",
                        List.copyOf(sources),
                        importance,
                        Tier.HOT,
                        MemoryStatus.ACTIVE,
                        validFrom,
                        Optional.empty(),
                        Optional.empty(),
                        1,
                        ctx.settings().embeddingVersion(),
                        vector,
                        ctx.asOf());
        long usageSum = totalUsage;
        Instant lastUsed = lastUse;
        List<Archives.Archived> archived =
                ctx.transaction(
                        c -> {
                            new MemoryStoreWriter(ctx.alias())
                                    .apply(
                                            c,
                                            List.of(
                                                    new MemoryChange.Created(
                                                            consolidated,
                                                            "consolidated "
                                                                    + originals.size()
                                                                    + " memories",
                                                            1.0)));
                            try (PreparedStatement st =
                                    c.prepareStatement(
                                            "update memories set usage_count = ?, last_accessed_at = ? where id = ?")) {
                                st.setLong(1, usageSum);
                                st.setTimestamp(
                                        2, lastUsed == null ? null : Timestamp.from(lastUsed));
                                st.setObject(3, id);
                                st.executeUpdate();
                            }
                            List<Archives.Archived> moved =
                                    Archives.archive(c, originals, vectors, id, "consolidation");
                            if (moved.isEmpty()) {
                                // Another run got there first: leave everything as it is.
                                c.rollback();
                                return moved;
                            }
                            ObjectNode detail = JSON.createObjectNode();
                            moved.forEach(
                                    m -> detail.withArray("originals").add(m.id().toString()));
                            try (PreparedStatement st = c.prepareStatement(MemoryEvents.INSERT)) {
                                MemoryEvents.bind(
                                        st,
                                        id,
                                        scope,
                                        "consolidate",
                                        1,
                                        id + ":consolidate",
                                        detail.toString());
                                st.executeUpdate();
                            }
                            return moved;
                        });
        if (archived.isEmpty()) {
            return;
        }
        indexLines.add(MemoryDocuments.index(ctx.alias(), consolidated));
        for (Archives.Archived a : archived) {
            indexLines.add(MemoryDocuments.delete(ctx.alias(), a.id().toString(), scope.routing()));
        }
        touched.add(scope);
        ctx.count("clusters", 1);
        ctx.count("archived", archived.size());
    }
}
