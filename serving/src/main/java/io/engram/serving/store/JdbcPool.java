package io.engram.serving.store;

import io.engram.config.EngramConfig;
import java.sql.Connection;
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

    private final EngramConfig.Postgres postgres;
    private final BlockingQueue<Connection> idle;

    /** At most {@code size} idle connections, each opened with the password of the moment. */
    public JdbcPool(EngramConfig.Postgres postgres, int size) {
        this.postgres = postgres;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    public <T> T with(Work<T> work) throws SQLException {
        Connection c = idle.poll();
        if (c == null || !c.isValid(1)) {
            if (c != null) {
                c.close();
            }
            c = postgres.connect();
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
