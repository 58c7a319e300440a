package io.engram.serving.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A few JDBC connections for the write path, which reuses the write plane's idempotent writer. Used
 * from worker threads only.
 */
public final class JdbcPool implements AutoCloseable {

    /** Work that needs a connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final String url;
    private final String user;
    private final String password;
    private final BlockingQueue<Connection> idle;

    public JdbcPool(String url, String user, String password, int size) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    public <T> T with(Work<T> work) throws SQLException {
        Connection c = idle.poll();
        if (c == null || !c.isValid(1)) {
            if (c != null) {
                c.close();
            }
            c = DriverManager.getConnection(url, user, password);
        }
        boolean healthy = false;
        try {
            T result = work.run(c);
            healthy = true;
            return result;
        } finally {
            if (!healthy || !idle.offer(c)) {
                c.close();
            }
        }
    }

    @Override
    public void close() {
        Connection c;
        while ((c = idle.poll()) != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }
}
