package io.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SchemaMigratorIT {

    private static PostgresServer postgres;
    private static String url;

    @BeforeAll
    static void migrate() throws SQLException {
        postgres = SharedServices.postgres();
        try (Connection c = postgres.connect("engram")) {
            c.createStatement().execute("create database schema_it");
        }
        url = postgres.jdbcUrl("schema_it");
        assertThat(SchemaMigrator.migrate(url, postgres.user(), postgres.password()))
                .as("every migration (V1 to V10) applies to an empty database")
                .isEqualTo(10);
    }

    @Test
    void migrationIsIdempotent() {
        assertThat(SchemaMigrator.migrate(url, postgres.user(), postgres.password())).isZero();
    }

    @Test
    void memoryRoundTripsWithArraysJsonAndTimestamps() throws SQLException {
        UUID id = UUID.randomUUID();
        Instant validFrom = Instant.parse("2026-03-15T10:00:00Z");
        try (Connection c = connect()) {
            try (PreparedStatement insert =
                    c.prepareStatement(
                            "insert into memories (id, tenant_id, user_id, session_id, type, content,"
                                    + " content_hash, tags, metadata, source, source_turn_ids,"
                                    + " importance, valid_from, embedding_version)"
                                    + " values (?, 'acme', 'alice', 's1', 'semantic', ?, 'h1', ?,"
                                    + " ?::jsonb, 'conversation', ?, 0.8, ?, 'minilm-l6-v2-fp32')")) {
                insert.setObject(1, id);
                insert.setString(2, "Alice's budget for the Hawaii trip is $10,000");
                insert.setArray(3, c.createArrayOf("text", new String[] {"travel", "budget"}));
                insert.setString(4, "{\"currency\": \"USD\"}");
                insert.setArray(5, c.createArrayOf("text", new String[] {"t1", "t2"}));
                insert.setObject(6, OffsetDateTime.ofInstant(validFrom, ZoneOffset.UTC));
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement select =
                            c.prepareStatement(
                                    "select content, tags, metadata->>'currency', source_turn_ids,"
                                            + " valid_from, status, tier, version, usage_count"
                                            + " from memories where id = ?");
                    ResultSet rs = bind(select, id).executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1))
                        .isEqualTo("Alice's budget for the Hawaii trip is $10,000");
                assertThat((String[]) rs.getArray(2).getArray())
                        .containsExactly("travel", "budget");
                assertThat(rs.getString(3)).isEqualTo("USD");
                assertThat((String[]) rs.getArray(4).getArray()).containsExactly("t1", "t2");
                assertThat(rs.getObject(5, OffsetDateTime.class).toInstant()).isEqualTo(validFrom);
                assertThat(rs.getString(6)).isEqualTo("active");
                assertThat(rs.getString(7)).isEqualTo("hot");
                assertThat(rs.getInt(8)).isEqualTo(1);
                assertThat(rs.getLong(9)).isZero();
            }
        }
    }

    @Test
    void constraintsRejectValuesOutsideTheModel() throws SQLException {
        try (Connection c = connect()) {
            assertThatThrownBy(
                            () ->
                                    c.createStatement()
                                            .execute(
                                                    "insert into memories (id, tenant_id, user_id, type,"
                                                            + " content, content_hash, source, valid_from,"
                                                            + " embedding_version) values"
                                                            + " (gen_random_uuid(), 't', 'u', 'gossip', 'x',"
                                                            + " 'h', 'api', now(), 'v')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("memories_type_check");
            assertThatThrownBy(
                            () ->
                                    c.createStatement()
                                            .execute(
                                                    "insert into api_keys (id, key_prefix, key_hash, tenant_id,"
                                                            + " scopes) values (gen_random_uuid(), 'ek', 'h',"
                                                            + " 't', array['root'])"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("api_keys_scopes_check");
        }
    }

    @Test
    void retentionRulesAreUniquePerScopeAndCategory() throws SQLException {
        try (Connection c = connect()) {
            c.createStatement()
                    .execute(
                            "insert into retention_rules (id, tenant_id, project_id, category, keep_days)"
                                    + " values (gen_random_uuid(), 'acme', null, 'episodic', 30)");
            assertThatThrownBy(
                            () ->
                                    c.createStatement()
                                            .execute(
                                                    "insert into retention_rules (id, tenant_id, project_id,"
                                                            + " category, keep_days) values"
                                                            + " (gen_random_uuid(), 'acme', null, 'episodic', 60)"))
                    .hasMessageContaining("retention_rules_scope_idx");
        }
    }

    private static Connection connect() throws SQLException {
        return java.sql.DriverManager.getConnection(url, postgres.user(), postgres.password());
    }

    private static PreparedStatement bind(PreparedStatement st, UUID id) throws SQLException {
        st.setObject(1, id);
        return st;
    }
}
