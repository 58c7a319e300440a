package io.engram.jobs;

import io.engram.embedding.TestEmbedders;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.OpenSearchClient;
import io.engram.store.postgres.SchemaMigrator;
import java.sql.Connection;
import java.time.Duration;

/** The shared test services as the jobs' tests use them. */
public final class TestStores {

    private TestStores() {}

    /** A new database with the current schema; returns its JDBC URL. */
    public static String migratedDatabase(String name) throws Exception {
        PostgresServer pg = SharedServices.postgres();
        try (Connection c = pg.connect("engram")) {
            c.createStatement().execute("create database " + name);
        }
        String url = pg.jdbcUrl(name);
        SchemaMigrator.migrate(url, pg.user(), pg.password());
        return url;
    }

    public static OpenSearchClient openSearch() {
        return new OpenSearchClient(SharedServices.openSearch().url(), Duration.ofSeconds(30));
    }

    /** Where tests keep the embedding model, extracted once per machine. */
    public static String modelDir() {
        return TestEmbedders.MODEL_DIR.toString();
    }
}
