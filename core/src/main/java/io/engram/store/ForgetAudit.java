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

    private static final String LAST_FORGET =
            "select max(created_at) from forget_audit where tenant_id = ? and environment = ?"
                    + " and user_id = ? and (project_id is null or project_id = ?)";

    private ForgetAudit() {}

    /**
     * When the scope's user was last forgotten, in its project or in every project, in epoch
     * milliseconds; -1 when never.
     */
    public static long lastForgetMillis(Connection c, Scope scope) throws SQLException {
        return lastForgets(c, List.of(scope)).get(scope);
    }

    /** {@link #lastForgetMillis} of each scope, on one prepared statement. */
    public static Map<Scope, Long> lastForgets(Connection c, Collection<Scope> scopes)
            throws SQLException {
        Map<Scope, Long> out = new HashMap<>();
        try (PreparedStatement st = c.prepareStatement(LAST_FORGET)) {
            for (Scope scope : scopes) {
                if (out.containsKey(scope)) {
                    continue;
                }
                st.setString(1, scope.tenantId());
                st.setString(2, scope.environment());
                st.setString(3, scope.userId());
                st.setString(4, scope.projectId());
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    Timestamp at = rs.getTimestamp(1);
                    out.put(scope, at == null ? -1 : at.getTime());
                }
            }
        }
        return out;
    }
}
