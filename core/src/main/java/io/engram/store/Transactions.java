package io.engram.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs work in one JDBC transaction: committed when it returns, rolled back when it throws. */
public final class Transactions {

    /** The work of one transaction. */
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private Transactions() {}

    public static <T> T in(Connection c, Work<T> work) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = work.run(c);
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
