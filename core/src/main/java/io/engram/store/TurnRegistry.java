package io.engram.store;

import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The turns whose windows have been stored ({@code turns_seen}): the same turns sent again — a
 * client's retry of a batch, a session re-sent after its end, overlapping batches — change nothing.
 * Read and written in the writer's transaction, under the user's lock.
 */
public final class TurnRegistry {

    private static final String SEEN =
            "select turn_id from turns_seen where tenant_id = ? and project_id = ? and environment = ?"
                    + " and user_id = ? and session_id = ? and turn_id = any(?)";
    private static final String REGISTER =
            "insert into turns_seen (tenant_id, project_id, environment, user_id, session_id, turn_id)"
                    + " select ?, ?, ?, ?, ?, unnest(?::text[]) on conflict do nothing";

    private TurnRegistry() {}

    /** Which of the turn ids of a session are stored already. */
    public static Set<String> seen(Connection c, Scope scope, String session, List<String> turnIds)
            throws SQLException {
        Set<String> out = new HashSet<>();
        if (session == null || turnIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement(SEEN)) {
            MemoryEvents.bindScope(st, 1, scope);
            st.setString(5, session);
            st.setArray(6, c.createArrayOf("text", turnIds.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static final String SEEN_ALL =
            "select t.tenant_id, t.project_id, t.environment, t.user_id, t.session_id, t.turn_id"
                    + " from turns_seen t join unnest(?::text[], ?::text[], ?::text[], ?::text[],"
                    + " ?::text[], ?::text[]) as q(a, b, c, d, e, f) on t.tenant_id = q.a"
                    + " and t.project_id = q.b and t.environment = q.c and t.user_id = q.d"
                    + " and t.session_id = q.e and t.turn_id = q.f";
    private static final String REGISTER_ALL =
            "insert into turns_seen (tenant_id, project_id, environment, user_id, session_id, turn_id)"
                    + " select * from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[],"
                    + " ?::text[]) on conflict do nothing";

    /** One window's turns: whose, which session. */
    record Window(Scope scope, MemoryStoreWriter.FromTurns batch) {}

    /**
     * For each window, the changes that do not come from turns stored already: none when every turn
     * of the window was stored before, else those with at least one new turn of the window among
     * their sources (a turn of the window's context, stored with the window before, does not
     * count). One round trip for all the windows.
     */
    static List<List<MemoryChange>> unseen(Connection c, List<Window> windows) throws SQLException {
        Set<String> seen = new HashSet<>();
        List<String[]> rows = rows(windows);
        if (!rows.isEmpty()) {
            try (PreparedStatement st = c.prepareStatement(SEEN_ALL)) {
                bindColumns(c, st, rows);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        seen.add(
                                key(
                                        rs.getString(1),
                                        rs.getString(2),
                                        rs.getString(3),
                                        rs.getString(4),
                                        rs.getString(5),
                                        rs.getString(6)));
                    }
                }
            }
        }
        List<List<MemoryChange>> out = new ArrayList<>();
        for (Window w : windows) {
            MemoryStoreWriter.FromTurns b = w.batch();
            Set<String> window = new HashSet<>();
            Set<String> stored = new HashSet<>();
            for (String turn : b.turnIds()) {
                window.add(turn);
                if (b.sessionId() != null && seen.contains(key(w.scope(), b.sessionId(), turn))) {
                    stored.add(turn);
                }
            }
            if (stored.isEmpty()) {
                out.add(b.changes());
            } else if (stored.containsAll(window)) {
                out.add(List.of());
            } else {
                List<MemoryChange> fresh = new ArrayList<>();
                for (MemoryChange change : b.changes()) {
                    List<String> own = change.toldIn().stream().filter(window::contains).toList();
                    if (own.isEmpty() || !stored.containsAll(own)) {
                        fresh.add(change);
                    }
                }
                out.add(fresh);
            }
        }
        return out;
    }

    /** Records the windows' turns as stored (in the writer's transaction). */
    static void register(Connection c, List<Window> windows) throws SQLException {
        List<String[]> rows = rows(windows);
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement(REGISTER_ALL)) {
            bindColumns(c, st, rows);
            st.executeUpdate();
        }
    }

    private static List<String[]> rows(List<Window> windows) {
        List<String[]> rows = new ArrayList<>();
        for (Window w : windows) {
            if (w.batch().sessionId() == null) {
                continue;
            }
            for (String turn : w.batch().turnIds()) {
                Scope s = w.scope();
                rows.add(
                        new String[] {
                            s.tenantId(),
                            s.projectId(),
                            s.environment(),
                            s.userId(),
                            w.batch().sessionId(),
                            turn
                        });
            }
        }
        return rows;
    }

    private static void bindColumns(Connection c, PreparedStatement st, List<String[]> rows)
            throws SQLException {
        for (int col = 0; col < 6; col++) {
            Object[] values = new Object[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                values[r] = rows.get(r)[col];
            }
            st.setArray(col + 1, c.createArrayOf("text", values));
        }
    }

    private static String key(Scope s, String session, String turn) {
        return key(s.tenantId(), s.projectId(), s.environment(), s.userId(), session, turn);
    }

    private static String key(String... parts) {
        return String.join("\u0001", parts);
    }
}
