package io.engram.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Memory;
import io.engram.memory.Scope;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * The archive: current memories folded into a consolidated one or evicted by a quota move there
 * whole (the row as it was, with its vector) and can be brought back exactly.
 */
public final class Archives {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String ARCHIVE =
            "insert into archives (original_id, consolidated_id, tenant_id, project_id, environment, user_id,"
                    + " reason, original) select id, ?, tenant_id, project_id, environment, user_id, ?,"
                    + " to_jsonb(m) || jsonb_build_object('vec', ?::jsonb) from memories m"
                    + " where id = ? and status = 'active' on conflict (original_id) do nothing";
    private static final String MARK_ARCHIVED =
            "update memories set status = 'archived', version = version + 1, updated_at = now()"
                    + " where id = ? and status = 'active' returning version, tenant_id, project_id,"
                    + " environment, user_id";
    private static final String FIND =
            "select original_id, consolidated_id, original from archives where tenant_id = ?"
                    + " and project_id = ? and environment = ? and user_id = ?"
                    + " and (original_id = ? or consolidated_id = ?) order by archived_at, original_id for update";

    private Archives() {}

    /** A memory moved to the archive. */
    public record Archived(UUID id, Scope scope, int version) {}

    /** What a restore brought back, and the consolidated memory it replaced (if any). */
    public record Restored(Scope scope, List<Memory> memories, Optional<UUID> removed) {

        /** The index writes that make the index agree with the restore. */
        public List<BulkOperation> indexLines(String alias) {
            List<BulkOperation> lines = new ArrayList<>();
            memories.forEach(m -> lines.add(MemoryDocuments.restore(alias, m)));
            removed.ifPresent(
                    id -> lines.add(MemoryDocuments.delete(alias, id.toString(), scope.routing())));
            return lines;
        }
    }

    /**
     * Moves current memories to the archive inside the caller's transaction: the row as it is (with
     * its vector, when known) goes to {@code archives}, the memory becomes {@code archived} with a
     * new version and an {@code archive} event. Memories that are no longer current are skipped.
     * The caller deletes the archived documents from the index after committing.
     */
    public static List<Archived> archive(
            Connection c,
            List<UUID> ids,
            Map<UUID, float[]> vectors,
            UUID consolidatedId,
            String reason)
            throws SQLException {
        List<Archived> out = new ArrayList<>();
        try (PreparedStatement archive = c.prepareStatement(ARCHIVE);
                PreparedStatement mark = c.prepareStatement(MARK_ARCHIVED);
                PreparedStatement event = c.prepareStatement(MemoryEvents.INSERT)) {
            for (UUID id : ids) {
                archive.setObject(1, consolidatedId);
                archive.setString(2, reason);
                archive.setString(3, vectorJson(vectors.get(id)));
                archive.setObject(4, id);
                if (archive.executeUpdate() == 0) {
                    continue;
                }
                mark.setObject(1, id);
                try (ResultSet rs = mark.executeQuery()) {
                    if (!rs.next()) {
                        continue;
                    }
                    Archived a = new Archived(id, MemoryRows.scope(rs), rs.getInt("version"));
                    ObjectNode detail = JSON.createObjectNode().put("reason", reason);
                    if (consolidatedId != null) {
                        detail.put("consolidated_id", consolidatedId.toString());
                    }
                    event(event, a.id(), a.scope(), "archive", a.version(), detail);
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * Restores {@code id} in {@code scope}: an archived original comes back alone; a consolidated
     * memory's id brings back every original folded into it and removes the consolidated memory.
     * The rows come back exactly as they were archived. Commits, then writes the index.
     *
     * @param embed computes a vector for an original archived without one
     * @return empty when nothing archived in this scope has that id
     */
    public static Optional<Restored> restore(
            Connection c,
            OpenSearchClient index,
            String alias,
            Scope scope,
            UUID id,
            Function<String, float[]> embed)
            throws SQLException {
        Restored restored = Transactions.in(c, tx -> restoreRows(tx, scope, id, embed));
        if (restored == null) {
            return Optional.empty();
        }
        Bulk.send(index, restored.indexLines(alias), "wait_for");
        return Optional.of(restored);
    }

    private static Restored restoreRows(
            Connection c, Scope scope, UUID id, Function<String, float[]> embed)
            throws SQLException {
        UserLocks.lock(c, List.of(scope));
        Map<UUID, JsonNode> originals = new LinkedHashMap<>();
        boolean single = false;
        try (PreparedStatement find = c.prepareStatement(FIND)) {
            MemoryEvents.bindScope(find, 1, scope);
            find.setObject(5, id);
            find.setObject(6, id);
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    UUID original = rs.getObject("original_id", UUID.class);
                    single |= original.equals(id);
                    originals.put(original, parse(rs.getString("original")));
                }
            }
        }
        if (originals.isEmpty()) {
            return null;
        }
        if (single) {
            originals.keySet().retainAll(List.of(id));
        }
        String columns = columns(c);
        String assign =
                "update memories m set ("
                        + columns
                        + ") = (select "
                        + prefixed("r.", columns)
                        + " from archives a, jsonb_populate_record(m, a.original) r"
                        + " where a.original_id = m.id) where m.id = ?";
        String insert =
                "insert into memories select (jsonb_populate_record(null::memories, original)).*"
                        + " from archives where original_id = ?";
        List<Memory> memories = new ArrayList<>();
        try (PreparedStatement update = c.prepareStatement(assign);
                PreparedStatement reinsert = c.prepareStatement(insert);
                PreparedStatement drop =
                        c.prepareStatement("delete from archives where original_id = ?");
                PreparedStatement read =
                        c.prepareStatement(
                                "select " + MemoryRows.COLUMNS + " from memories where id = ?");
                PreparedStatement event = c.prepareStatement(MemoryEvents.INSERT)) {
            for (Map.Entry<UUID, JsonNode> e : originals.entrySet()) {
                update.setObject(1, e.getKey());
                if (update.executeUpdate() == 0) {
                    reinsert.setObject(1, e.getKey());
                    reinsert.executeUpdate();
                }
                drop.setObject(1, e.getKey());
                drop.executeUpdate();
                read.setObject(1, e.getKey());
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    JsonNode vec = e.getValue().path("vec");
                    float[] vector =
                            vec.isArray() && vec.size() > 0
                                    ? toVector(vec)
                                    : embed.apply(rs.getString("content"));
                    Memory m = MemoryRows.read(rs, vector);
                    memories.add(m);
                    ObjectNode detail = JSON.createObjectNode();
                    if (!single) {
                        detail.put("from_consolidated", id.toString());
                    }
                    event(event, m.id(), scope, "restore", m.version(), detail);
                }
            }
            Optional<UUID> removed = Optional.empty();
            if (!single) {
                try (PreparedStatement delete =
                        c.prepareStatement(
                                "delete from memories where id = ? and tenant_id = ? and user_id = ?"
                                        + " and source = 'consolidation' returning version")) {
                    delete.setObject(1, id);
                    delete.setString(2, scope.tenantId());
                    delete.setString(3, scope.userId());
                    try (ResultSet rs = delete.executeQuery()) {
                        if (rs.next()) {
                            event(
                                    event,
                                    id,
                                    scope,
                                    "delete",
                                    rs.getInt(1),
                                    JSON.createObjectNode()
                                            .put("reason", "its originals were restored"));
                            removed = Optional.of(id);
                        }
                    }
                }
            }
            return new Restored(scope, memories, removed);
        }
    }

    /** Every column of {@code memories} but the id, in table order. */
    private static String columns(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st =
                        c.prepareStatement(
                                "select column_name from information_schema.columns where table_name = 'memories'"
                                        + " and table_schema = current_schema() and column_name <> 'id'"
                                        + " order by ordinal_position");
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return String.join(", ", out);
    }

    private static String prefixed(String prefix, String columns) {
        return List.of(columns.split(", ")).stream()
                .map(col -> prefix + col)
                .collect(Collectors.joining(", "));
    }

    private static void event(
            PreparedStatement st, UUID id, Scope s, String kind, int version, ObjectNode detail)
            throws SQLException {
        // Archive and restore can alternate, so these events are never deduplicated; the status
        // guards make every step happen once.
        MemoryEvents.bind(st, id, s, kind, version, null, detail.toString());
        st.executeUpdate();
    }

    private static String vectorJson(float[] v) {
        if (v == null) {
            return "null";
        }
        ArrayNode a = JSON.createArrayNode();
        for (float f : v) {
            a.add(f);
        }
        return a.toString();
    }

    private static float[] toVector(JsonNode vec) {
        float[] v = new float[vec.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) vec.get(i).asDouble();
        }
        return v;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable archive row", e);
        }
    }
}
