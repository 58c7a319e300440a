package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import io.engram.memory.Scope;
import io.engram.store.ForgetAudit;
import java.sql.SQLException;

/**
 * The production {@link PastForgets}: the audit in PostgreSQL, on one connection per subtask
 * (opened again once when it fails). A lookup that still fails fails the operator: the job restarts
 * from its last checkpoint rather than write what may have been forgotten.
 */
public final class PostgresPastForgets implements PastForgets {

    private static final long serialVersionUID = 1L;

    private final EngramConfig.Postgres postgres;

    public PostgresPastForgets(EngramConfig.Postgres postgres) {
        this.postgres = postgres;
    }

    @Override
    public Lookup open() {
        ReopeningConnection connection = new ReopeningConnection(postgres);
        return new Lookup() {
            @Override
            public long lastForget(Scope scope) throws SQLException {
                return connection.retryingOnce(c -> ForgetAudit.lastForgetMillis(c, scope));
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }
}
