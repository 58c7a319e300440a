package io.engram.jobs.maintenance;

import io.engram.embedding.ModelSpec;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Reindex: every current and superseded memory of this partition, embedded anew with the configured
 * model, written to the new concrete index {@code target}; the runner switches the alias once every
 * partition is done. With {@code changedSince}, only the memories changed since then: the catch-ups
 * of what the write plane changed while the copy ran, before the switch, and during that catch-up,
 * after it (counted as {@code caught_up}).
 */
public final class ReindexTask implements MaintenanceTask {

    private static final int BATCH = 64;

    private final String target;
    private final Instant changedSince;

    public ReindexTask(String target, Instant changedSince) {
        this.target = target;
        this.changedSince = changedSince;
    }

    @Override
    public void run(TaskContext ctx) throws SQLException {
        List<Memory> batch = new ArrayList<>();
        try (PreparedStatement scan =
                ctx.read()
                        .prepareStatement(
                                "select "
                                        + MemoryRows.COLUMNS
                                        + " from memories where status in ('active', 'superseded') and "
                                        + ctx.scopeFilter()
                                        + (changedSince == null ? "" : " and updated_at >= ?"))) {
            scan.setFetchSize(1000);
            int next = ctx.bindScope(scan, 1);
            if (changedSince != null) {
                scan.setTimestamp(next, Timestamp.from(changedSince));
            }
            try (ResultSet rs = scan.executeQuery()) {
                while (rs.next()) {
                    if (changedSince == null) {
                        ctx.count("scanned", 1);
                    }
                    batch.add(MemoryRows.read(rs, null));
                    if (batch.size() >= BATCH) {
                        write(ctx, batch);
                    }
                }
            }
        }
        write(ctx, batch);
    }

    private void write(TaskContext ctx, List<Memory> batch) {
        if (batch.isEmpty()) {
            return;
        }
        ctx.index(indexLines(ctx, target, batch), "false");
        ctx.count(changedSince == null ? "indexed" : "caught_up", batch.size());
        batch.clear();
    }

    /** Index lines of {@code batch} for {@code target}, embedded anew with the configured model. */
    static List<BulkOperation> indexLines(TaskContext ctx, String target, List<Memory> batch) {
        // Embedded as the write plane embeds them (Excerpts#embeddedText).
        boolean excerptVectors = ModelSpec.scaleOf(ctx.embedder().version()).excerptVectors();
        List<String> texts = new ArrayList<>();
        List<Integer> embeddedAt = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Memory m = batch.get(i);
            int at = i;
            Excerpts.embeddedText(m.tags(), m.content(), excerptVectors)
                    .ifPresent(
                            t -> {
                                texts.add(t);
                                embeddedAt.add(at);
                            });
        }
        List<float[]> computed = texts.isEmpty() ? List.of() : ctx.embedder().embed(texts);
        float[][] vectors = new float[batch.size()][];
        java.util.Arrays.fill(vectors, new float[0]);
        for (int j = 0; j < computed.size(); j++) {
            vectors[embeddedAt.get(j)] = computed.get(j);
        }
        List<BulkOperation> lines = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Memory m = batch.get(i);
            Memory embedded =
                    new Memory(
                            m.id(),
                            m.scope(),
                            m.sessionId(),
                            m.type(),
                            m.content(),
                            m.tags(),
                            m.source(),
                            m.sourceTurnIds(),
                            m.importance(),
                            m.tier(),
                            m.status(),
                            m.validFrom(),
                            m.validTo(),
                            m.supersededBy(),
                            m.version(),
                            ctx.settings().embeddingVersion(),
                            vectors[i],
                            m.createdAt());
            lines.add(MemoryDocuments.index(target, embedded));
        }
        return lines;
    }
}
