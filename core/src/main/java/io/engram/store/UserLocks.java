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

    /** The locks of many users, taken in the order of the array (one round trip). */
    private static final String LOCK_ALL =
            "select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(?::text[])"
                    + " with ordinality as u(k, n) order by n";

    /** Takes the locks of the scopes' users, in one order for every writer (no deadlock). */
    public static void lock(Connection c, Collection<Scope> scopes) throws SQLException {
        TreeSet<String> keys = new TreeSet<>();
        scopes.forEach(s -> keys.add(key(s)));
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement(keys.size() == 1 ? LOCK : LOCK_ALL)) {
            if (keys.size() == 1) {
                st.setString(1, keys.first());
            } else {
                st.setArray(1, c.createArrayOf("text", keys.toArray()));
            }
            st.executeQuery().close();
        }
    }
}
