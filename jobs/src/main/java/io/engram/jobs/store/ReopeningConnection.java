package io.engram.jobs.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * One JDBC connection of an operator, opened on first use and again after {@link #close()}: a
 * caller that sees a statement fail closes it, and the next use connects anew.
 */
public final class ReopeningConnection implements AutoCloseable {

    private final String url;
    private final String user;
    private final String password;
    private Connection connection;

    public ReopeningConnection(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** The open connection, connecting first when there is none. */
    public Connection get() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = DriverManager.getConnection(url, user, password);
        }
        return connection;
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
