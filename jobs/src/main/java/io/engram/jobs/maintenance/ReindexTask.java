package io.engram.jobs.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.memory.Memory;
import io.engram.store.MemoryRows;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reindex: every current and superseded memory of this partition, embedded anew with the configured
 * model, written to the new concrete index {@code target}; the runner switches the alias once every
 * partition is done.
 */
public final class ReindexTask implements MaintenanceTask {

    private static final int BATCH = 64;

    private final String target;

    public ReindexTask(String target) {
        this.target = target;
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
                                        + ctx.scopeFilter())) {
            scan.setFetchSize(1000);
            ctx.bindScope(scan, 1);
            try (ResultSet rs = scan.executeQuery()) {
                while (rs.next()) {
                    ctx.count("scanned", 1);
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
        List<String> texts = new ArrayList<>();
        batch.forEach(m -> texts.add(m.content()));
        List<float[]> vectors = ctx.embedder().embed(texts);
        List<JsonNode> lines = new ArrayList<>();
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
                            vectors.get(i),
                            m.createdAt());
            lines.addAll(MemoryDocuments.indexLines(target, embedded));
        }
        Bulk.send(ctx.openSearch(), lines, "false");
        ctx.count("indexed", batch.size());
        batch.clear();
    }
}
