package io.engram.store;

import io.engram.memory.Memory;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/** Reads memories from JDBC result sets selected with {@link #COLUMNS}. */
public final class MemoryRows {

    /** The columns {@link #read} needs, prefixed by nothing (use in a select list). */
    public static final String COLUMNS =
            "id, tenant_id, project_id, environment, user_id, session_id, type, content, tags, source,"
                    + " source_turn_ids, importance, tier, status, valid_from, valid_to, superseded_by, version,"
                    + " embedding_version, created_at";

    private MemoryRows() {}

    public static Scope scope(ResultSet rs) throws SQLException {
        return new Scope(
                rs.getString("tenant_id"),
                rs.getString("project_id"),
                rs.getString("environment"),
                rs.getString("user_id"));
    }

    /** The memory of the current row, with {@code vector} (which PostgreSQL does not hold). */
    public static Memory read(ResultSet rs, float[] vector) throws SQLException {
        return new Memory(
                rs.getObject("id", UUID.class),
                scope(rs),
                Optional.ofNullable(rs.getString("session_id")),
                MemoryType.fromWire(rs.getString("type")),
                rs.getString("content"),
                strings(rs.getArray("tags")),
                rs.getString("source"),
                strings(rs.getArray("source_turn_ids")),
                rs.getDouble("importance"),
                Tier.valueOf(rs.getString("tier").toUpperCase(Locale.ROOT)),
                MemoryStatus.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)),
                rs.getTimestamp("valid_from").toInstant(),
                Optional.ofNullable(rs.getTimestamp("valid_to")).map(Timestamp::toInstant),
                Optional.ofNullable(rs.getObject("superseded_by", UUID.class)),
                rs.getInt("version"),
                rs.getString("embedding_version"),
                vector,
                rs.getTimestamp("created_at").toInstant());
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }
}
