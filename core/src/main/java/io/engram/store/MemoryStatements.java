package io.engram.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The statements {@link MemoryStoreWriter} applies changes with, and how it binds a memory and its
 * events to them: every write is guarded by id and version, so a replay changes nothing.
 */
final class MemoryStatements {

    private MemoryStatements() {}

    static final ObjectMapper JSON = new ObjectMapper();

    static final String INSERT =
            "insert into memories (id, tenant_id, project_id, environment, user_id, session_id, type, content,"
                    + " content_hash, tags, source, source_turn_ids, importance, tier, status, valid_from, valid_to,"
                    + " superseded_by, version, embedding_version, created_at, quality_score, updated_at)"
                    + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())"
                    + " on conflict (id) do nothing";
    static final String UPDATE_CONTENT =
            "update memories set content = ?, content_hash = ?, tags = ?, source_turn_ids = ?, importance = ?,"
                    + " valid_from = ?, version = ?, updated_at = now() where id = ? and version < ?"
                    + " and status = 'active'";
    static final String SUPERSEDE =
            "update memories set status = 'superseded', valid_to = ?, superseded_by = ?, version = ?,"
                    + " updated_at = now() where id = ? and version < ? and status = 'active'";
    static final String REINFORCE =
            "update memories set source_turn_ids = source_turn_ids"
                    + " || array(select t from unnest(?::text[]) t where not (t = any(source_turn_ids))),"
                    + " importance = greatest(importance, ?), updated_at = now(),"
                    // Said again, it holds: a contradiction by a turn in between is undone.
                    + " consistency_score = case when contradicted_by is null then consistency_score"
                    + " else 1.0 end, contradicted_by = null"
                    + " where id = ? and status = 'active'";

    /** Whether an update already holds: the memory is current at this version or a later one. */
    static final String CURRENT =
            "select 1 from memories where id = ? and status = 'active' and version >= ?";

    /** Whether a supersede already holds. */
    static final String SUPERSEDED_BY = "select 1 from memories where id = ? and superseded_by = ?";

    /** An active memory of the user that says the same words. */
    static final String SAME_WORDS =
            "select 1 from memories where tenant_id = ? and project_id = ? and environment = ?"
                    + " and user_id = ? and content_hash = ? and status = 'active'";

    /** Inserts a new memory (a replay inserts nothing) and its {@code create} event. */
    static void create(
            Connection c,
            PreparedStatement insert,
            PreparedStatement event,
            Memory m,
            ObjectNode detail)
            throws SQLException {
        bindInsert(c, insert, m);
        insert.executeUpdate();
        bindEvent(event, m, "create", m.version(), detail);
        event.executeUpdate();
    }

    static boolean exists(Connection c, String sql, UUID id, Object other) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setObject(1, id);
            st.setObject(2, other);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    static void bindInsert(Connection c, PreparedStatement st, Memory m) throws SQLException {
        st.setObject(1, m.id());
        MemoryEvents.bindScope(st, 2, m.scope());
        st.setString(6, m.sessionId().orElse(null));
        st.setString(7, m.type().wireName());
        st.setString(8, m.content());
        st.setString(9, MemoryIds.contentHash(m.content()));
        st.setArray(10, textArray(c, m.tags()));
        st.setString(11, m.source());
        st.setArray(12, textArray(c, m.sourceTurnIds()));
        st.setDouble(13, m.importance());
        st.setString(14, m.tier().wireName());
        st.setString(15, m.status().wireName());
        st.setTimestamp(16, Timestamp.from(m.validFrom()));
        st.setTimestamp(17, m.validTo().map(Timestamp::from).orElse(null));
        st.setObject(18, m.supersededBy().orElse(null));
        st.setInt(19, m.version());
        st.setString(20, m.embeddingVersion());
        st.setTimestamp(21, Timestamp.from(m.createdAt()));
        st.setDouble(22, MemoryQuality.of(m));
    }

    static void bindEvent(
            PreparedStatement st, Memory m, String kind, int version, ObjectNode detail)
            throws SQLException {
        // A memory is created and superseded once; updates are told apart by version.
        String key = kind.equals("update") ? m.id() + ":update:" + version : m.id() + ":" + kind;
        MemoryEvents.bind(st, m.id(), m.scope(), kind, version, key, detail.toString());
    }

    static ObjectNode detail(MemoryChange change) {
        ObjectNode d = JSON.createObjectNode();
        d.put("reason", change.reason());
        d.put("similarity", Math.round(change.similarity() * 1000) / 1000.0);
        return d;
    }

    static Array textArray(Connection c, List<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray(new String[0]));
    }

    /**
     * {@code change}'s memory as a new one (first version, hot, active), unless an active memory of
     * the user already says the same words; its id comes from its scope, source turns and words, so
     * a replay inserts nothing twice.
     */
    static Optional<MemoryChange> storeAsNew(
            Connection c, PreparedStatement insert, PreparedStatement event, MemoryChange change)
            throws SQLException {
        Memory m = change.memory();
        try (PreparedStatement same = c.prepareStatement(SAME_WORDS)) {
            MemoryEvents.bindScope(same, 1, m.scope());
            same.setString(5, MemoryIds.contentHash(m.content()));
            try (ResultSet rs = same.executeQuery()) {
                if (rs.next()) {
                    return Optional.empty();
                }
            }
        }
        Memory fresh = m.asNew(Instant.now());
        MemoryChange created =
                new MemoryChange.Created(
                        fresh,
                        change.reason() + "; the memory it matched is no longer current",
                        change.similarity());
        create(c, insert, event, fresh, detail(created));
        return Optional.of(created);
    }
}
