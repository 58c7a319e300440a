package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One JDBC connection of an operator, opened on first use and again after {@link #close()}: a
 * caller that sees a statement fail closes it, and the next use connects anew.
 */
public final class ReopeningConnection implements AutoCloseable {

    private final EngramConfig.Postgres postgres;
    private Connection connection;

    /** Connects with the password {@code postgres} holds at each connect (see its file). */
    public ReopeningConnection(EngramConfig.Postgres postgres) {
        this.postgres = postgres;
    }

    /** The open connection, connecting first when there is none. */
    public Connection get() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = postgres.connect();
        }
        return connection;
    }

    /** Work on the connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work}; when it fails, once more on a new connection (the old one may have been
     * dropped while idle). A second failure is thrown.
     */
    public <T> T retryingOnce(Work<T> work) throws SQLException {
        try {
            return work.run(get());
        } catch (SQLException first) {
            close();
            return work.run(get());
        }
    }

    /** Lets the connection go, broken or not. */
    @Override
    public void close() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // already broken
        }
        connection = null;
    }
}
