package io.engram.store;

import io.engram.memory.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/** The audit of forgets in PostgreSQL, read by the write plane. */
public final class ForgetAudit {

    private ForgetAudit() {}

    /**
     * When the scope's user was last forgotten, in its project or in every project, in epoch
     * milliseconds; -1 when never.
     */
    public static long lastForgetMillis(Connection c, Scope scope) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "select max(created_at) from forget_audit where tenant_id = ? and environment = ?"
                                + " and user_id = ? and (project_id is null or project_id = ?)")) {
            st.setString(1, scope.tenantId());
            st.setString(2, scope.environment());
            st.setString(3, scope.userId());
            st.setString(4, scope.projectId());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                Timestamp at = rs.getTimestamp(1);
                return at == null ? -1 : at.getTime();
            }
        }
    }
}
