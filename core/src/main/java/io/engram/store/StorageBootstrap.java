package io.engram.store;

import io.engram.auth.ApiKeys;
import io.engram.config.EngramConfig;
import io.engram.events.TopicBootstrap;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.postgres.SchemaMigrator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Makes the stores ready for both planes: the schema migrations, the turns and dead-letter topics,
 * the memory index behind its alias, and optionally an admin API key to start with. Each step
 * leaves what exists alone, so running it again (every start of the local stack, every deployment)
 * changes nothing that is already there.
 */
public final class StorageBootstrap {

    /** What a run did. */
    public record Result(
            int migrationsApplied, List<String> topicsCreated, String index, boolean indexCreated) {
        @Override
        public String toString() {
            return migrationsApplied
                    + " migration(s) applied, topics created "
                    + topicsCreated
                    + ", index "
                    + index
                    + " ("
                    + (indexCreated ? "created" : "existing")
                    + ")";
        }
    }

    private StorageBootstrap() {}

    public static Result prepare(EngramConfig config) {
        int migrations =
                SchemaMigrator.migrate(
                        config.postgres().url(),
                        config.postgres().user(),
                        config.postgres().password());
        List<String> topics =
                TopicBootstrap.ensure(
                        config.kafka().clientProperties(),
                        List.of(config.kafka().turnsTopic(), config.kafka().dlqTopic()),
                        config.kafka().partitions(),
                        (short) config.kafka().replicationFactor());
        IndexBootstrap.Result index =
                IndexBootstrap.ensure(
                        OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(30)),
                        config.memoryIndexAlias(),
                        config.openSearch().shards(),
                        config.openSearch().replicas());
        return new Result(migrations, topics, index.index(), index.created());
    }

    /**
     * Stores the hash of {@code key} as the deployment's key (read, write, admin, operator) of the
     * given scope, unless that key is stored already; the key itself is never stored.
     */
    public static void registerAdminKey(
            EngramConfig.Postgres postgres,
            String key,
            String tenant,
            String project,
            String environment) {
        registerKey(
                postgres,
                key,
                tenant,
                project,
                environment,
                List.of("read", "write", "admin", "operator"),
                "bootstrap");
    }

    /** Stores the hash of {@code key} with its scope and scopes, unless it is stored already. */
    public static void registerKey(
            EngramConfig.Postgres postgres,
            String key,
            String tenant,
            String project,
            String environment,
            List<String> scopes,
            String name) {
        try (Connection c = postgres.connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "insert into api_keys (id, key_prefix, key_hash, tenant_id, project_id,"
                                        + " environment, scopes, name) values (?, ?, ?, ?, ?, ?, ?, ?)"
                                        + " on conflict (key_hash) do nothing")) {
            st.setObject(1, UUID.randomUUID());
            st.setString(2, ApiKeys.displayPrefix(key));
            st.setString(3, ApiKeys.hash(key));
            st.setString(4, tenant);
            st.setString(5, project);
            st.setString(6, environment);
            st.setArray(7, c.createArrayOf("text", scopes.toArray()));
            st.setString(8, name);
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot register API key " + name + ": " + e.getMessage(), e);
        }
    }
}
