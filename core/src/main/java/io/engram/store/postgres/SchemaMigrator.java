package io.engram.store.postgres;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/** Applies the Flyway migrations under {@code db/migration} to a database. */
public final class SchemaMigrator {

    private SchemaMigrator() {}

    /** Migrates to the latest version; returns how many migrations ran (0 when up to date). */
    public static int migrate(String jdbcUrl, String user, String password) {
        MigrateResult result =
                Flyway.configure()
                        .dataSource(jdbcUrl, user, password)
                        .locations("classpath:db/migration")
                        .failOnMissingLocations(true)
                        .load()
                        .migrate();
        return result.migrationsExecuted;
    }
}
