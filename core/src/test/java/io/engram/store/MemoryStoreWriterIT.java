package io.engram.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.postgres.SchemaMigrator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writer against a real PostgreSQL when a change was decided against a memory that is no longer
 * current (the streaming job's keyed state knows a memory that maintenance archived or the API
 * forgot since).
 */
class MemoryStoreWriterIT {

    private static final Instant T = Instant.parse("2026-05-01T10:00:00Z");
    private static final String ALIAS = "memories";

    private static PostgresServer postgres;
    private static String url;

    @BeforeAll
    static void database() throws SQLException {
        postgres = SharedServices.postgres();
        try (Connection c = postgres.connect("engram")) {
            c.createStatement().execute("create database writer_it");
        }
        url = postgres.jdbcUrl("writer_it");
        SchemaMigrator.migrate(url, postgres.user(), postgres.password());
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(url, postgres.user(), postgres.password());
    }

    private static Memory memory(Scope scope, String content, List<String> sources) {
        return new Memory(
                MemoryIds.fromConversation(scope, sources, content),
                scope,
                Optional.of("s1"),
                MemoryType.SEMANTIC,
                content,
                List.of(),
                "conversation",
                sources,
                0.6,
                Tier.WARM,
                MemoryStatus.ACTIVE,
                T,
                Optional.empty(),
                Optional.empty(),
                1,
                "minilm-l6-v2-int8",
                new float[384],
                T);
    }

    /** A new version of {@code m} with more words, from a second turn. */
    private static MemoryChange update(Memory m, String content) {
        return new MemoryChange.Updated(
                m.withContent(content, List.of(), List.of("t1", "t2"), 0.6, T, new float[384]),
                m.content(),
                "more detail",
                0.9);
    }

    private static List<MemoryChange> write(MemoryStoreWriter writer, MemoryChange change)
            throws SQLException {
        try (Connection c = connect()) {
            return writer.writePostgres(c, List.of(change));
        }
    }

    private static void sql(String statement, Object... args) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st = c.prepareStatement(statement)) {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            st.executeUpdate();
        }
    }

    /** The user's active memories' contents. */
    private static List<String> active(Scope scope) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select content from memories where user_id = ? and status ="
                                        + " 'active' order by content")) {
            st.setString(1, scope.userId());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    @Test
    void aFactRepeatedAfterItsMemoryWasArchivedIsStoredAgainOnce() throws Exception {
        Scope ann = new Scope("acme", "default", "prod", "ann");
        MemoryStoreWriter facts = new MemoryStoreWriter(ALIAS);
        Memory paris = memory(ann, "Ann lives in Paris.", List.of("t1"));
        write(facts, new MemoryChange.Created(paris, "new", 0));
        sql("update memories set status = 'archived' where id = ?", paris.id());

        // The job's state still holds the memory as active: the repeat is a reinforcement.
        MemoryChange again =
                new MemoryChange.Reinforced(
                        paris.reinforced(List.of("t2"), 0.6), "same fact", 0.97);
        List<MemoryChange> written = write(facts, again);

        assertThat(written).singleElement().isInstanceOf(MemoryChange.Created.class);
        Memory stored = written.get(0).memory();
        assertThat(stored.id()).isNotEqualTo(paris.id());
        assertThat(stored.status()).isEqualTo(MemoryStatus.ACTIVE);
        assertThat(stored.tier()).isEqualTo(Tier.HOT);
        assertThat(stored.sourceTurnIds()).containsExactly("t1", "t2");
        assertThat(active(ann)).containsExactly("Ann lives in Paris.");

        // A third mention, still against the stale state, adds nothing: the words are remembered.
        MemoryChange third =
                new MemoryChange.Reinforced(
                        paris.reinforced(List.of("t3"), 0.6), "same fact", 0.97);
        assertThat(write(facts, third)).isEmpty();
        assertThat(active(ann)).containsExactly("Ann lives in Paris.");
        // Replaying the second batch inserts nothing twice.
        assertThat(write(facts, again)).isEmpty();
        assertThat(active(ann)).containsExactly("Ann lives in Paris.");
    }

    @Test
    void anUpdateOfAForgottenMemoryIsANewMemoryForFactsAndNothingForEdits() throws Exception {
        Scope bob = new Scope("acme", "default", "prod", "bob");
        Memory job = memory(bob, "Bob works at Initech.", List.of("t1"));
        write(new MemoryStoreWriter(ALIAS), new MemoryChange.Created(job, "new", 0));
        sql("delete from memories where id = ?", job.id());
        MemoryChange update = update(job, "Bob works at Initech as a tester.");

        // An edit through the API of a memory forgotten meanwhile: dropped, not indexed again.
        assertThat(write(MemoryStoreWriter.forEdits(ALIAS), update)).isEmpty();
        assertThat(active(bob)).isEmpty();

        // The same fact from a conversation is kept.
        List<MemoryChange> written = write(new MemoryStoreWriter(ALIAS), update);
        assertThat(written).singleElement().isInstanceOf(MemoryChange.Created.class);
        assertThat(written.get(0).memory().id()).isNotEqualTo(job.id());
        assertThat(written.get(0).memory().version()).isEqualTo(1);
        assertThat(active(bob)).containsExactly("Bob works at Initech as a tester.");
    }

    @Test
    void aSupersedeOfAMemoryThatIsGoneLeavesTheOldOneOutOfTheIndex() throws Exception {
        Scope cy = new Scope("acme", "default", "prod", "cy");
        MemoryStoreWriter facts = new MemoryStoreWriter(ALIAS);
        Memory old = memory(cy, "Cy's budget is $5,000.", List.of("t1"));
        write(facts, new MemoryChange.Created(old, "new", 0));
        sql("update memories set status = 'archived' where id = ?", old.id());
        Memory newer = memory(cy, "Cy's budget is $8,000.", List.of("t2"));

        List<MemoryChange> written =
                write(
                        facts,
                        new MemoryChange.Superseded(
                                newer, old.superseded(newer.id(), T), "new value", 0.9));

        assertThat(written).singleElement().isInstanceOf(MemoryChange.Created.class);
        assertThat(written.get(0).replaced()).isEmpty();
        assertThat(written.get(0).memory().id()).isEqualTo(newer.id());
        assertThat(active(cy)).containsExactly("Cy's budget is $8,000.");
    }

    @Test
    void changesToCurrentMemoriesAndTheirReplaysAreWrittenAsDecided() throws Exception {
        Scope di = new Scope("acme", "default", "prod", "di");
        MemoryStoreWriter facts = new MemoryStoreWriter(ALIAS);
        Memory pet = memory(di, "Di has a cat.", List.of("t1"));
        MemoryChange created = new MemoryChange.Created(pet, "new", 0);
        assertThat(write(facts, created)).containsExactly(created);
        MemoryChange update = update(pet, "Di has a cat named Miso.");
        assertThat(write(facts, update)).containsExactly(update);
        // A replayed batch: the update already holds, nothing new is created.
        assertThat(write(facts, update)).containsExactly(update);
        assertThat(active(di)).containsExactly("Di has a cat named Miso.");
    }

    private static org.opensearch.client.opensearch.OpenSearchClient index() {
        var client =
                io.engram.store.opensearch.OpenSearchClients.create(
                        SharedServices.openSearch().url(), java.time.Duration.ofSeconds(30));
        io.engram.store.opensearch.IndexBootstrap.ensure(client, "writer-it-memories", 1, 0);
        return client;
    }

    private static float[] unit() {
        float[] v = new float[384];
        v[0] = 1;
        return v;
    }

    private static long indexed(
            org.opensearch.client.opensearch.OpenSearchClient client, Scope scope) {
        var q = io.engram.store.opensearch.MemoryQuery.forScope(scope).includeHistory(true);
        IndexInspection.refresh(client, "writer-it-memories");
        return IndexInspection.count(client, "writer-it-memories", q);
    }

    private static Memory withVector(Memory m) {
        return m.withContent(m.content(), m.tags(), m.sourceTurnIds(), 0.6, T, unit());
    }

    @Test
    void changesOfTurnsSentBeforeTheUsersLastForgetAreNotWritten() throws SQLException {
        Scope zoe = new Scope("acme", "default", "dev", "zoe");
        Instant forgotten = Instant.parse("2026-05-02T10:00:00Z");
        sql(
                "insert into forget_audit (tenant_id, project_id, environment, user_id,"
                        + " memories_deleted, created_at) values ('acme', null, 'dev', 'zoe', 1, ?)",
                java.sql.Timestamp.from(forgotten));
        Memory before = withVector(memory(zoe, "Zoe lives in Leeds.", List.of("t1")));
        Memory after = withVector(memory(zoe, "Zoe lives in York.", List.of("t9")));
        var client = index();
        MemoryStoreWriter.Outcome outcome;
        try (Connection c = connect()) {
            outcome =
                    new MemoryStoreWriter("writer-it-memories")
                            .writeFromTurns(
                                    c,
                                    client,
                                    scopes -> {},
                                    List.of(
                                            new MemoryStoreWriter.FromTurns(
                                                    forgotten.toEpochMilli() - 1,
                                                    List.of(
                                                            new MemoryChange.Created(
                                                                    before, "new", 0))),
                                            new MemoryStoreWriter.FromTurns(
                                                    forgotten.toEpochMilli() + 1,
                                                    List.of(
                                                            new MemoryChange.Created(
                                                                    after, "new", 0)))));
        }
        assertThat(outcome).isEqualTo(new MemoryStoreWriter.Outcome(1, 1, 0));
        assertThat(active(zoe)).containsExactly("Zoe lives in York.");
        assertThat(indexed(client, zoe)).isEqualTo(1);
    }

    @Test
    void aDocumentWhoseRowWasForgottenBeforeTheIndexWriteLeavesTheIndexAgain() throws SQLException {
        Scope yan = new Scope("acme", "default", "dev", "yan");
        Memory m = withVector(memory(yan, "Yan plays the cello.", List.of("t1")));
        MemoryStoreWriter writer = new MemoryStoreWriter("writer-it-memories");
        var client = index();
        try (Connection c = connect()) {
            List<MemoryChange> written =
                    writer.writePostgres(c, List.of(new MemoryChange.Created(m, "new", 0)));
            // A forget deletes the row (and searches the index) between the commit and the index
            // write.
            sql("delete from memories where user_id = 'yan'");
            writer.indexConfirmed(c, client, written);
        }
        assertThat(indexed(client, yan)).isZero();
    }

    @Test
    void aMemoryTheIndexDidNotTakeAfterItsCommitIsWrittenAgainFromItsRow() throws Exception {
        Scope uma = new Scope("acme", "default", "dev", "uma");
        Memory m = withVector(memory(uma, "Uma restores old pianos.", List.of("t1")));
        MemoryStoreWriter writer = new MemoryStoreWriter("writer-it-memories");
        var live = index();
        // Nothing listens there: the index is down when the commit's own write is sent.
        var down =
                io.engram.store.opensearch.OpenSearchClients.create(
                        "http://127.0.0.1:" + io.engram.services.FreePorts.find(),
                        java.time.Duration.ofSeconds(2));
        MemoryStoreWriter.FromTurns window =
                new MemoryStoreWriter.FromTurns(
                        T.toEpochMilli(),
                        List.of(new MemoryChange.Created(m, "new", 0)),
                        "s1",
                        List.of("t1"));
        try (Connection c = connect()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> writer.writeFromTurns(c, down, scopes -> {}, List.of(window)))
                    .isInstanceOf(io.engram.store.opensearch.OpenSearchException.class);
            // The replay after the job's restart finds the turns stored and writes nothing.
            assertThat(writer.writeFromTurns(c, live, scopes -> {}, List.of(window)).written())
                    .isZero();
            assertThat(indexed(live, uma)).as("missing from the index").isZero();

            // Pending for less than the wait: a commit's own write may still be under way.
            assertThat(writer.repairIndex(c, live, java.time.Duration.ofHours(1), 100).indexed())
                    .isZero();
            IndexOutbox.Repair repair = writer.repairIndex(c, live, java.time.Duration.ZERO, 100);
            assertThat(repair.indexed()).isEqualTo(1);
            assertThat(repair.scopes()).containsExactly(uma);
        }
        assertThat(indexed(live, uma)).isEqualTo(1);
        var hit =
                IndexInspection.run(
                                () ->
                                        live.get(
                                                g ->
                                                        g.index("writer-it-memories")
                                                                .id(m.id().toString())
                                                                .routing(uma.routing()),
                                                com.fasterxml.jackson.databind.JsonNode.class))
                        .source();
        assertThat(hit.path("content").asText()).isEqualTo("Uma restores old pianos.");
        assertThat(hit.path(io.engram.store.opensearch.MemoryIndex.VECTOR_FIELD).size())
                .as("with the vector the commit had")
                .isEqualTo(384);
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select count(*) from index_outbox where memory_id = '"
                                                + m.id()
                                                + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("nothing left pending").isZero();
        }
    }

    @Test
    void aMemoryWrittenWithTheIndexUpLeavesNothingPending() throws Exception {
        Scope vic = new Scope("acme", "default", "dev", "vic");
        Memory m = withVector(memory(vic, "Vic coaches a rowing team.", List.of("t1")));
        try (Connection c = connect()) {
            new MemoryStoreWriter("writer-it-memories")
                    .writeFromTurns(
                            c,
                            index(),
                            scopes -> {},
                            List.of(
                                    new MemoryStoreWriter.FromTurns(
                                            T.toEpochMilli(),
                                            List.of(new MemoryChange.Created(m, "new", 0)),
                                            "s1",
                                            List.of("t1"))));
            try (ResultSet rs =
                    c.createStatement()
                            .executeQuery(
                                    "select count(*) from index_outbox where memory_id = '"
                                            + m.id()
                                            + "'")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }
}
