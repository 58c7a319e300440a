package io.engram.store;

import io.engram.memory.Scope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.TreeSet;

/**
 * Serialises every writer of a user's memories with a forget of that user: each takes, inside its
 * PostgreSQL transaction, an advisory lock named by tenant, environment and user (a forget may
 * cover every project, so the project is not part of the name). A write that commits before a
 * forget is deleted by it; a write that waits for a forget sees its audit row.
 */
public final class UserLocks {

    /** Takes one user's lock until the transaction ends; {@code ?} is the {@link #key}. */
    public static final String LOCK = "select pg_advisory_xact_lock(hashtextextended(?, 0))";

    private UserLocks() {}

    public static String key(String tenant, String environment, String user) {
        return tenant + '\u0001' + environment + '\u0001' + user;
    }

    public static String key(Scope s) {
        return key(s.tenantId(), s.environment(), s.userId());
    }

    /** Takes the locks of the scopes' users, in one order for every writer (no deadlock). */
    public static void lock(Connection c, Collection<Scope> scopes) throws SQLException {
        TreeSet<String> keys = new TreeSet<>();
        scopes.forEach(s -> keys.add(key(s)));
        try (PreparedStatement st = c.prepareStatement(LOCK)) {
            for (String k : keys) {
                st.setString(1, k);
                st.executeQuery().close();
            }
        }
    }
}
