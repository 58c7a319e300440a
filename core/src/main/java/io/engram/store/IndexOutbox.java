package io.engram.store;

import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.Scope;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * What a commit still has to write to the index ({@code index_outbox}): recorded in the commit's
 * transaction, removed once the index has taken it. When the index refuses a write after the
 * commit, the entries stay, and {@link #repair} writes those memories again from their rows (with
 * the vector kept here) — a replay of the same turns cannot, since it finds them already stored.
 */
public final class IndexOutbox {

    private static final String ENQUEUE =
            "insert into index_outbox (memory_id, batch, vector) values (?, ?, ?)"
                    + " on conflict (memory_id) do update set batch = excluded.batch,"
                    + " vector = coalesce(excluded.vector, index_outbox.vector), queued_at = now()";

    private static final String DONE =
            "delete from index_outbox where memory_id = any(?) and batch = ?";

    private static final String PENDING =
            "select o.batch as outbox_batch, o.vector as outbox_vector, "
                    + MemoryRows.COLUMNS
                    + " from index_outbox o join memories m on m.id = o.memory_id"
                    + " where o.queued_at < now() - make_interval(secs => ?)"
                    + " order by o.queued_at limit ?";

    private IndexOutbox() {}

    /** The entries of one commit: their batch, and the memories they name. */
    public record Entries(UUID batch, List<UUID> ids) {
        static final Entries NONE = new Entries(null, List.of());
    }

    /**
     * Records, in the caller's transaction, the documents the written changes need: each memory and
     * the one it replaced.
     */
    public static Entries enqueue(Connection tx, List<MemoryChange> written) throws SQLException {
        if (written.isEmpty()) {
            return Entries.NONE;
        }
        UUID batch = UUID.randomUUID();
        Map<UUID, float[]> documents = new LinkedHashMap<>();
        for (MemoryChange change : written) {
            if (change instanceof MemoryChange.Contradicted) {
                continue;
            }
            change.replaced().ifPresent(old -> documents.put(old.id(), old.vector()));
            documents.put(change.memory().id(), change.memory().vector());
        }
        try (PreparedStatement st = tx.prepareStatement(ENQUEUE)) {
            for (Map.Entry<UUID, float[]> d : documents.entrySet()) {
                st.setObject(1, d.getKey());
                st.setObject(2, batch);
                st.setArray(3, vectorArray(tx, d.getValue()));
                st.addBatch();
            }
            st.executeBatch();
        }
        return new Entries(batch, new ArrayList<>(documents.keySet()));
    }

    /**
     * The index has the entries' documents: they are no longer pending (unless re-queued since).
     */
    public static void done(Connection c, Entries entries) throws SQLException {
        if (entries.ids().isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement(DONE)) {
            st.setArray(1, c.createArrayOf("uuid", entries.ids().toArray()));
            st.setObject(2, entries.batch());
            st.executeUpdate();
        }
    }

    /** What a repair wrote: documents indexed and removed, and the scopes they belong to. */
    public record Repair(int indexed, int removed, Set<Scope> scopes) {}

    /**
     * Writes to the index, from their rows as they are now, up to {@code limit} memories pending
     * for longer than {@code olderThan} (a commit's own index write normally takes milliseconds): a
     * current or superseded memory is indexed, any other removed. External versions keep an older
     * state from replacing a newer one written meanwhile. Throws when the index refuses, leaving
     * the entries for the next try.
     */
    public static Repair repair(
            Connection c, OpenSearchClient client, String alias, Duration olderThan, int limit)
            throws SQLException {
        List<BulkOperation> lines = new ArrayList<>();
        List<UUID> ids = new ArrayList<>();
        List<UUID> batches = new ArrayList<>();
        Set<Scope> scopes = new LinkedHashSet<>();
        int indexed = 0;
        int removed = 0;
        try (PreparedStatement st = c.prepareStatement(PENDING)) {
            st.setDouble(1, olderThan.toMillis() / 1000.0);
            st.setInt(2, limit);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Memory m = MemoryRows.read(rs, vector(rs.getArray("outbox_vector")));
                    ids.add(m.id());
                    batches.add(rs.getObject("outbox_batch", UUID.class));
                    scopes.add(m.scope());
                    if (m.status() == MemoryStatus.ACTIVE
                            || m.status() == MemoryStatus.SUPERSEDED) {
                        lines.add(MemoryDocuments.index(alias, m));
                        indexed++;
                    } else {
                        lines.add(
                                MemoryDocuments.delete(
                                        alias, m.id().toString(), m.scope().routing()));
                        removed++;
                    }
                }
            }
        }
        if (ids.isEmpty()) {
            return new Repair(0, 0, Set.of());
        }
        Bulk.send(client, lines, "false");
        try (PreparedStatement st =
                c.prepareStatement(
                        "delete from index_outbox o using unnest(?::uuid[], ?::uuid[]) as d(id, batch)"
                                + " where o.memory_id = d.id and o.batch = d.batch")) {
            st.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            st.setArray(2, c.createArrayOf("uuid", batches.toArray()));
            st.executeUpdate();
        }
        return new Repair(indexed, removed, scopes);
    }

    private static Array vectorArray(Connection c, float[] vector) throws SQLException {
        if (vector == null || vector.length == 0) {
            return null;
        }
        Float[] boxed = new Float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            boxed[i] = vector[i];
        }
        return c.createArrayOf("float4", boxed);
    }

    private static float[] vector(Array array) throws SQLException {
        if (array == null) {
            return null;
        }
        Object[] values = (Object[]) array.getArray();
        float[] out = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = ((Number) values[i]).floatValue();
        }
        return out;
    }
}
