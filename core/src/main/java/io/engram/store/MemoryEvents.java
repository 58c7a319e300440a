package io.engram.store;

import io.engram.memory.Scope;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/** Rows of {@code memory_events}: one statement, bound one way, for every writer. */
public final class MemoryEvents {

    /** Insert of one event; a repeated {@code dedup_key} is ignored (replays). */
    public static final String INSERT =
            "insert into memory_events (memory_id, tenant_id, project_id, environment, user_id, kind, version,"
                    + " dedup_key, detail) values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) on conflict do nothing";

    private MemoryEvents() {}

    /**
     * Binds one event to a statement prepared from {@link #INSERT}.
     *
     * @param dedupKey null when the event may legally happen again (tier moves, restores)
     */
    public static void bind(
            PreparedStatement st,
            UUID memoryId,
            Scope s,
            String kind,
            int version,
            String dedupKey,
            String detailJson)
            throws SQLException {
        st.setObject(1, memoryId);
        bindScope(st, 2, s);
        st.setString(6, kind);
        st.setInt(7, version);
        st.setString(8, dedupKey);
        st.setString(9, detailJson);
    }

    /** Binds tenant, project, environment and user to four parameters from {@code index}. */
    public static int bindScope(PreparedStatement st, int index, Scope s) throws SQLException {
        st.setString(index, s.tenantId());
        st.setString(index + 1, s.projectId());
        st.setString(index + 2, s.environment());
        st.setString(index + 3, s.userId());
        return index + 4;
    }
}
