package io.engram.store;

import io.engram.memory.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The audit of forgets in PostgreSQL, read by the writers of conversation memories. */
public final class ForgetAudit {

    private ForgetAudit() {}

    /**
     * When the scope's user was last forgotten, in its project or in every project, in epoch
     * milliseconds; -1 when never.
     */
    public static long lastForgetMillis(Connection c, Scope scope) throws SQLException {
        return lastForgets(c, List.of(scope)).get(scope);
    }

    private static final String LAST_FORGETS =
            "select q.t, q.p, q.e, q.u, (select max(f.created_at) from forget_audit f"
                    + " where f.tenant_id = q.t and f.environment = q.e and f.user_id = q.u"
                    + " and (f.project_id is null or f.project_id = q.p))"
                    + " from unnest(?::text[], ?::text[], ?::text[], ?::text[]) as q(t, p, e, u)";

    /** {@link #lastForgetMillis} of each scope, in one round trip. */
    public static Map<Scope, Long> lastForgets(Connection c, Collection<Scope> scopes)
            throws SQLException {
        Map<Scope, Long> out = new HashMap<>();
        List<Scope> distinct = new java.util.ArrayList<>(new java.util.LinkedHashSet<>(scopes));
        if (distinct.isEmpty()) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement(LAST_FORGETS)) {
            st.setArray(
                    1, c.createArrayOf("text", distinct.stream().map(Scope::tenantId).toArray()));
            st.setArray(
                    2, c.createArrayOf("text", distinct.stream().map(Scope::projectId).toArray()));
            st.setArray(
                    3,
                    c.createArrayOf("text", distinct.stream().map(Scope::environment).toArray()));
            st.setArray(4, c.createArrayOf("text", distinct.stream().map(Scope::userId).toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Timestamp at = rs.getTimestamp(5);
                    out.put(
                            new Scope(
                                    rs.getString(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getString(4)),
                            at == null ? -1 : at.getTime());
                }
            }
        }
        return out;
    }
}
