package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import io.engram.memory.Scope;
import io.engram.store.TurnRegistry;
import java.sql.SQLException;
import java.util.List;

/** The production {@link SeenTurns}: the registry in PostgreSQL, one connection per subtask. */
public final class PostgresSeenTurns implements SeenTurns {

    private static final long serialVersionUID = 1L;

    private final EngramConfig.Postgres postgres;

    public PostgresSeenTurns(EngramConfig.Postgres postgres) {
        this.postgres = postgres;
    }

    @Override
    public Lookup open() {
        ReopeningConnection connection = new ReopeningConnection(postgres);
        return new Lookup() {
            @Override
            public boolean allSeen(Scope scope, String session, List<String> turnIds)
                    throws SQLException {
                if (session == null || turnIds.isEmpty()) {
                    return false;
                }
                return connection.retryingOnce(
                        c -> TurnRegistry.seen(c, scope, session, turnIds).containsAll(turnIds));
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }
}
