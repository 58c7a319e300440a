package io.engram.jobs.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.cache.CacheKeys;
import io.engram.config.EngramConfig;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.jobs.TestStores;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.services.Await;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.Archives;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchAuth;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opensearch.client.opensearch.OpenSearchClient;
import redis.clients.jedis.JedisPooled;

/**
 * The maintenance jobs as Flink batch jobs on real PostgreSQL, OpenSearch and Redis, with seeded
 * memories and the run's clock set by the test.
 */
class MaintenanceJobIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String ALIAS = "engram-memories-maint-it";
    private static final Instant NOW = Instant.parse("2026-09-01T04:00:00Z");

    private static PostgresServer postgres;
    private static String jdbcUrl;
    private static OpenSearchClient openSearch;
    private static OnnxEmbedder embedder;
    private static MaintenanceSettings settings;
    private static MaintenanceRunner runner;

    @BeforeAll
    static void setUp() throws Exception {
        postgres = SharedServices.postgres();
        jdbcUrl = TestStores.migratedDatabase("maint_it");
        openSearch = TestStores.openSearch();
        IndexBootstrap.ensure(openSearch, ALIAS, 1, 0);
        String modelDir = TestStores.modelDir();
        embedder = OnnxEmbedder.load(ModelSpec.MINILM_L6_V2, Path.of(modelDir), 1);
        settings = settings("minilm-l6-v2-fp32", jdbcUrl, ALIAS);
        runner = new MaintenanceRunner(settings, MaintenanceRunner.inProcess());
    }

    private static MaintenanceSettings settings(String version, String jdbc, String alias) {
        return new MaintenanceSettings(
                new EngramConfig.Maintenance(30, 14, 60, 0.8, 0.6, 10_000, 30, 2, "off"),
                version,
                TestStores.modelDir(),
                1,
                new EngramConfig.Postgres(jdbc, postgres.user(), postgres.password(), "", 2),
                SharedServices.openSearch().url(),
                OpenSearchAuth.NONE,
                alias,
                1,
                0,
                EngramConfig.Redis.at(SharedServices.redis().url(), ""));
    }

    @AfterAll
    static void tearDown() {
        if (embedder != null) {
            embedder.close();
        }
    }

    @Test
    void unusedMemoriesCoolDownAndComeBackToHotWhenRecalled() throws Exception {
        Scope dana = new Scope("decay", "default", "dev", "dana");
        Scope eve = new Scope("decay", "default", "dev", "eve");
        Memory stale = seed(dana, "Dana keeps bees on her balcony", "conversation", 0.3);
        Memory important = seed(dana, "Dana is allergic to penicillin", "conversation", 0.9);
        Memory fresh = seed(eve, "Eve is learning the cello", "conversation", 0.3);
        setTimes(stale.id(), NOW.minus(Duration.ofDays(200)), NOW.minus(Duration.ofDays(100)), 3);
        setTimes(
                important.id(),
                NOW.minus(Duration.ofDays(200)),
                NOW.minus(Duration.ofDays(100)),
                0);
        setTimes(fresh.id(), NOW.minus(Duration.ofDays(3)), NOW.minus(Duration.ofDays(1)), 9);

        MaintenanceReport first = runner.run(MaintenanceKind.DECAY, "decay", NOW, "test");
        assertThat(first.scanned()).isEqualTo(3);
        assertThat(first.changed()).containsEntry("tier_cold", 1L).containsEntry("tier_warm", 1L);
        assertThat(column(stale.id(), "tier")).isEqualTo("cold");
        assertThat(column(important.id(), "tier")).isEqualTo("warm");
        assertThat(column(fresh.id(), "tier")).isEqualTo("hot");
        assertThat(Double.parseDouble(column(stale.id(), "decay_score"))).isBetween(0.1, 0.2);
        assertThat(Double.parseDouble(column(fresh.id(), "decay_score"))).isGreaterThan(0.95);
        // The tenant's usage percentiles: 0 recalls < 3 recalls < 9 recalls.
        assertThat(Double.parseDouble(column(fresh.id(), "usage_percentile")))
                .isGreaterThan(Double.parseDouble(column(stale.id(), "usage_percentile")));
        assertThat(indexed(dana, stale.id()).path("tier").asText()).isEqualTo("cold");
        assertThat(events(stale.id(), "tier")).isEqualTo(1);

        MaintenanceReport again = runner.run(MaintenanceKind.DECAY, "decay", NOW, "test");
        assertThat(again.totalChanged()).as("a second run changes nothing").isZero();

        // Recalled again (what the serving tier's bookkeeping writes), then the next day's run.
        Instant tomorrow = NOW.plus(Duration.ofDays(1));
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "update memories set usage_count = usage_count + 1, last_accessed_at = ?"
                                        + " where id = ?")) {
            st.setTimestamp(1, Timestamp.from(tomorrow.minus(Duration.ofHours(2))));
            st.setObject(2, stale.id());
            st.executeUpdate();
        }
        MaintenanceReport next = runner.run(MaintenanceKind.DECAY, "decay", tomorrow, "test");
        assertThat(next.changed()).containsEntry("tier_hot", 1L);
        assertThat(column(stale.id(), "tier")).isEqualTo("hot");
        assertThat(indexed(dana, stale.id()).path("tier").asText()).isEqualTo("hot");
        // Partial tier updates never block the next content version of a memory.
        Memory edited =
                stale.withContent(
                        "Dana keeps two hives of bees on her balcony",
                        stale.tags(),
                        stale.sourceTurnIds(),
                        0.4,
                        stale.validFrom(),
                        embedder.embed(List.of("Dana keeps two hives of bees")).get(0));
        write(List.of(new MemoryChange.Updated(edited, stale.content(), "test edit", 0.95)));
        assertThat(indexed(dana, stale.id()).path("content").asText()).contains("two hives");
    }

    /** A statement no longer current is never folded into one that reads as current. */
    @Test
    void consolidationLeavesAContradictedStatementOut() throws Exception {
        Scope cleo = new Scope("fold", "default", "dev", "cleo");
        Instant t = NOW.minus(Duration.ofDays(20));
        Memory old = seedAt(cleo, "Cleo drives a 2016 Skoda Fabia", t);
        Memory same = seedAt(cleo, "Cleo drives a 2016 Skoda Fabia hatchback", t.plusSeconds(60));
        Memory later = seedAt(cleo, "Cleo: the fabia finally died on the a1", t.plusSeconds(120));
        try (Connection c = connect();
                java.sql.PreparedStatement st =
                        c.prepareStatement(
                                "update memories set contradicted_by = ?, consistency_score = 0.2"
                                        + " where id = any(?)")) {
            st.setObject(1, later.id());
            st.setArray(2, c.createArrayOf("uuid", new Object[] {old.id(), same.id()}));
            assertThat(st.executeUpdate()).isEqualTo(2);
        }
        runner.run(MaintenanceKind.CONSOLIDATE, null, NOW, "test");
        assertThat(column(old.id(), "status")).isEqualTo("active");
        assertThat(column(same.id(), "status")).isEqualTo("active");
        assertThat(currentContents(cleo)).noneMatch(c -> c.contains("Fabia") && c.contains(";"));
    }

    @Test
    void consolidationFoldsTheHawaiiBudgetAndRestoresTheOriginalsExactly() throws Exception {
        Scope alice = new Scope("fold", "default", "dev", "alice");
        Scope bob = new Scope("fold", "default", "dev", "bob");
        Instant t = NOW.minus(Duration.ofDays(20));
        Memory m1 = seedAt(alice, "Alice's Hawaii trip budget is $10,000", t);
        Memory m2 =
                seedAt(
                        alice,
                        "Alice's Hawaii trip budget was raised to $12,000",
                        t.plusSeconds(86_400));
        Memory m3 =
                seedAt(
                        alice,
                        "Alice booked flights to Hawaii for June 5",
                        t.plusSeconds(2 * 86_400));
        Memory unrelated = seedAt(alice, "Alice works as a pediatric nurse in Denver", t);
        Memory bobs = seedAt(bob, "Bob's Hawaii trip budget is $3,000", t);
        Memory bobs2 =
                seedAt(bob, "Bob's Hawaii trip budget was raised to $4,000", t.plusSeconds(60));
        List<UUID> originals = List.of(m1.id(), m2.id(), m3.id());
        Map<UUID, String> before = rows(originals);

        MaintenanceReport report = runner.run(MaintenanceKind.CONSOLIDATE, null, NOW, "test");
        assertThat(report.changed()).containsEntry("archived", 5L).containsEntry("clusters", 2L);
        // the extraction job is told to reload the users it folded
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            assertThat(redis.get(CacheKeys.otherWrites(alice))).isNotNull();
            assertThat(redis.get(CacheKeys.otherWrites(bob))).isNotNull();
        }

        List<String> current = currentContents(alice);
        assertThat(current).hasSize(2).contains(unrelated.content());
        String folded =
                current.stream().filter(c -> c.contains("Hawaii")).findFirst().orElseThrow();
        assertThat(folded).contains("$12,000", "$10,000", "June 5");
        assertThat(folded.indexOf("$12,000")).isLessThan(folded.indexOf("$10,000"));
        UUID consolidated = idOf(alice, folded);
        for (UUID id : originals) {
            assertThat(column(id, "status")).isEqualTo("archived");
            assertThat(indexed(alice, id)).isNull();
        }
        assertThat(indexed(alice, consolidated).path("content").asText()).isEqualTo(folded);
        // Bob's memories were folded within Bob's scope only.
        assertThat(currentContents(bob)).hasSize(1).allMatch(c -> c.contains("$4,000"));
        assertThat(column(bobs.id(), "status")).isEqualTo("archived");
        assertThat(column(bobs2.id(), "status")).isEqualTo("archived");

        MaintenanceReport again = runner.run(MaintenanceKind.CONSOLIDATE, null, NOW, "test");
        assertThat(again.totalChanged()).as("a second run changes nothing").isZero();

        Optional<Archives.Restored> restored;
        try (Connection c = connect()) {
            restored =
                    Archives.restore(
                            c,
                            openSearch,
                            ALIAS,
                            alice,
                            consolidated,
                            text -> embedder.embed(List.of(text)).get(0));
        }
        assertThat(restored).isPresent();
        assertThat(restored.get().removed()).contains(consolidated);
        assertThat(rows(originals)).as("restored byte for byte").isEqualTo(before);
        assertThat(column(consolidated, "status")).isNull();
        for (UUID id : originals) {
            assertThat(indexed(alice, id).path("status").asText()).isEqualTo("active");
        }
        assertThat(indexed(alice, consolidated)).isNull();
        assertThat(currentContents(alice)).hasSize(4);
        try (Connection c = connect()) {
            assertThat(Archives.restore(c, openSearch, ALIAS, bob, consolidated, x -> null))
                    .as("another user cannot restore Alice's archive")
                    .isEmpty();
        }
    }

    @Test
    void aRunAfterOneThatLeftTheIndexBehindPostgresMendsTheIndex() throws Exception {
        Scope carol = new Scope("mend", "default", "dev", "carol");
        Instant t = NOW.minus(Duration.ofDays(20));
        Memory m1 = seedAt(carol, "Carol's Lisbon trip budget is $2,000", t);
        Memory m2 =
                seedAt(carol, "Carol's Lisbon trip budget was raised to $2,500", t.plusSeconds(60));
        // Failures of other tests' runs are not this test's to mend.
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "update maintenance_runs set index_repaired_at = now()"
                                        + " where status = 'failed'")) {
            st.executeUpdate();
        }
        // OpenSearch's flood-stage block (429) for longer than the writes wait: the fold is
        // committed to PostgreSQL, its index writes fail the run.
        String index = aliasTarget();
        blockWrites(index, true);
        try {
            assertThatThrownBy(() -> runner.run(MaintenanceKind.CONSOLIDATE, "mend", NOW, "test"))
                    .isInstanceOf(Exception.class);
        } finally {
            blockWrites(index, false);
        }
        UUID failed = lastRun("mend", "failed");
        String folded = currentContents(carol).get(0);
        assertThat(folded).contains("$2,500");
        UUID consolidated = idOf(carol, folded);
        assertThat(indexed(carol, consolidated)).as("the fold is not in the index").isNull();
        assertThat(indexed(carol, m1.id())).as("an archived original still is").isNotNull();

        MaintenanceReport next = runner.run(MaintenanceKind.DECAY, "mend", NOW, "test");
        assertThat(next.note())
                .contains(failed.toString())
                .contains("1 memories indexed again, 2 removed");
        assertThat(indexed(carol, consolidated).path("content").asText()).isEqualTo(folded);
        assertThat(indexed(carol, m1.id())).isNull();
        assertThat(indexed(carol, m2.id())).isNull();
        assertThat(runColumn(failed, "index_repaired_at")).isNotNull();

        MaintenanceReport after = runner.run(MaintenanceKind.DECAY, "mend", NOW, "test");
        assertThat(after.note()).as("each failed run is mended once").isNull();
    }

    @Test
    void retentionRulesResolveMostSpecificFirst() throws Exception {
        String tenant = "keep";
        rule(tenant, null, null, 100, 7);
        rule(tenant, "p1", null, 50, 30);
        rule(tenant, null, "semantic", 30, 30);
        rule(tenant, null, "episodic", 60, 30);
        rule(tenant, "p1", "semantic", 10, 30);
        Map<String, Memory> m = new LinkedHashMap<>();
        m.put("project+category", aged(tenant, "p1", MemoryType.SEMANTIC, 20));
        m.put("tenant+category", aged(tenant, "p2", MemoryType.SEMANTIC, 40));
        m.put("tenant+category over project", aged(tenant, "p1", MemoryType.EPISODIC, 55));
        m.put("project default", aged(tenant, "p1", MemoryType.PROCEDURAL, 60));
        m.put("tenant default kept", aged(tenant, "p2", MemoryType.PROCEDURAL, 90));
        m.put("tenant default expired", aged(tenant, "p2", MemoryType.PROCEDURAL, 103));
        m.put("past grace", aged(tenant, "p2", MemoryType.SOCIAL, 120));
        m.put("no rules", aged("forever", "p1", MemoryType.SEMANTIC, 1000));

        MaintenanceReport report = runner.run(MaintenanceKind.RETENTION, null, NOW, "test");
        Map<String, String> statuses = new LinkedHashMap<>();
        for (Map.Entry<String, Memory> e : m.entrySet()) {
            statuses.put(e.getKey(), column(e.getValue().id(), "status"));
        }
        assertThat(report.changed())
                .as("%s", statuses)
                .containsEntry("expired", 4L)
                .containsEntry("deleted", 1L);
        assertThat(column(m.get("project+category").id(), "status")).isEqualTo("expired");
        assertThat(column(m.get("tenant+category").id(), "status")).isEqualTo("expired");
        assertThat(column(m.get("tenant+category over project").id(), "status"))
                .isEqualTo("active");
        assertThat(column(m.get("project default").id(), "status")).isEqualTo("expired");
        assertThat(column(m.get("tenant default kept").id(), "status")).isEqualTo("active");
        assertThat(column(m.get("tenant default expired").id(), "status")).isEqualTo("expired");
        assertThat(column(m.get("past grace").id(), "status")).isNull();
        assertThat(column(m.get("no rules").id(), "status")).isEqualTo("active");
        Memory expired = m.get("project+category");
        assertThat(indexed(expired.scope(), expired.id())).as("expired leaves the index").isNull();

        MaintenanceReport again = runner.run(MaintenanceKind.RETENTION, null, NOW, "test");
        assertThat(again.totalChanged()).as("a second run changes nothing").isZero();
    }

    @Test
    void quotaArchivesTheLowestValueButNeverRecentExplicitMemories() throws Exception {
        Scope quinn = new Scope("quota", "default", "dev", "quinn");
        Scope other = new Scope("quota", "default", "dev", "rita");
        List<Memory> conversation = new ArrayList<>();
        double[] importance = {0.2, 0.3, 0.7, 0.9};
        String[] facts = {
            "Quinn likes rainy days",
            "Quinn owns a red bicycle",
            "Quinn is a software architect",
            "Quinn's daughter is called Mia"
        };
        for (int i = 0; i < facts.length; i++) {
            conversation.add(seed(quinn, facts[i], "conversation", importance[i]));
        }
        Memory explicit1 = seed(quinn, "Quinn prefers short answers", "api", 0.1);
        Memory explicit2 = seed(quinn, "Quinn's timezone is CET", "api", 0.1);
        for (Memory mem : List.of(explicit1, explicit2)) {
            setTimes(mem.id(), NOW.minus(Duration.ofDays(2)), null, 0);
        }
        for (int i = 0; i < 6; i++) {
            seed(other, "Rita fact number " + i, "conversation", 0.1);
        }
        MaintenanceRunner quota4 =
                new MaintenanceRunner(settings.withQuota(4), MaintenanceRunner.inProcess());

        MaintenanceReport report = quota4.run(MaintenanceKind.QUOTA, "quota", NOW, "test");
        assertThat(report.changed()).containsEntry("evicted", 4L);
        assertThat(column(conversation.get(0).id(), "status")).isEqualTo("archived");
        assertThat(column(conversation.get(1).id(), "status")).isEqualTo("archived");
        assertThat(column(conversation.get(3).id(), "status")).isEqualTo("active");
        assertThat(column(explicit1.id(), "status")).isEqualTo("active");
        assertThat(column(explicit2.id(), "status")).isEqualTo("active");
        assertThat(currentContents(quinn)).hasSize(4);
        assertThat(currentContents(other)).hasSize(4);
        assertThat(indexed(quinn, conversation.get(0).id())).isNull();
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select count(*) from archives where reason = 'quota' and user_id = 'quinn'");
                ResultSet rs = st.executeQuery()) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }

        MaintenanceReport again = quota4.run(MaintenanceKind.QUOTA, "quota", NOW, "test");
        assertThat(again.totalChanged()).as("a second run changes nothing").isZero();
    }

    @Test
    void reindexRebuildsTheIndexFromPostgresAndSwitchesTheAlias() throws Exception {
        Scope zoe = new Scope("reindex", "default", "dev", "zoe");
        Memory kept = seed(zoe, "Zoe grows chili peppers on her roof", "conversation", 0.5);
        IndexInspection.refresh(openSearch, ALIAS);
        String before = aliasTarget();

        MaintenanceReport report = runner.run(MaintenanceKind.REINDEX, null, NOW, "test");
        String after = aliasTarget();
        assertThat(after).isNotEqualTo(before).startsWith(ALIAS + "-");
        assertThat(report.note()).contains(after);
        long indexable;
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select count(*) from memories where status in ('active', 'superseded')")) {
            rs.next();
            indexable = rs.getLong(1);
        }
        assertThat(report.changed()).containsEntry("indexed", indexable);
        assertThat(report.scanned()).isEqualTo(indexable);
        assertThat(IndexInspection.count(openSearch, after)).isEqualTo(indexable);
        JsonNode doc = indexed(zoe, kept.id());
        assertThat(doc.path("content").asText()).isEqualTo(kept.content());
        assertThat(doc.path("vec").size()).isEqualTo(384);
        assertThatThrownByReindexForOneTenant();
    }

    @Test
    void reindexCatchesUpWithWhatTheWritePlaneDidWhileItCopied() throws Exception {
        Scope ivy = new Scope("reindex-live", "default", "dev", "ivy");
        Memory changed = seed(ivy, "Ivy plays the cello", "conversation", 0.5);
        Memory forgotten = seed(ivy, "Ivy's locker code is 4471", "conversation", 0.5);
        IndexInspection.refresh(openSearch, ALIAS);
        Memory updated =
                new Memory(
                        changed.id(),
                        ivy,
                        changed.sessionId(),
                        changed.type(),
                        "Ivy plays the viola now",
                        changed.tags(),
                        changed.source(),
                        changed.sourceTurnIds(),
                        changed.importance(),
                        changed.tier(),
                        MemoryStatus.ACTIVE,
                        changed.validFrom(),
                        Optional.empty(),
                        Optional.empty(),
                        2,
                        changed.embeddingVersion(),
                        embedder.embed(List.of("Ivy plays the viola now")).get(0),
                        changed.createdAt());
        List<Memory> created = new ArrayList<>();
        List<String> seenOnceSwitched = new ArrayList<>();
        List<String> aliasedBefore = new ArrayList<>();
        MaintenanceRunner.Executor copyThenWrite =
                new MaintenanceRunner.Executor() {
                    private int runs;

                    @Override
                    public void execute(
                            org.apache.flink.streaming.api.environment.StreamExecutionEnvironment
                                    env,
                            String name)
                            throws Exception {
                        if (++runs >= 2) {
                            aliasedBefore.add(IndexInspection.aliasTarget(openSearch, ALIAS));
                        }
                        if (runs == 3) {
                            // The copy, its catch-up, the switch: what recall reads from now on,
                            // before the last catch-up.
                            seenOnceSwitched.add(
                                    indexed(ivy, changed.id()).path("content").asText());
                            seenOnceSwitched.add(
                                    indexed(ivy, created.get(0).id()) == null
                                            ? "greyhound missing"
                                            : "greyhound indexed");
                        }
                        env.execute(name);
                        if (runs > 1) {
                            return;
                        }
                        // Meanwhile the write plane went on through the alias, still the old index.
                        write(
                                List.of(
                                        new MemoryChange.Updated(
                                                updated, changed.content(), "test", 0.9)));
                        created.add(seed(ivy, "Ivy adopted a greyhound", "conversation", 0.5));
                        try (Connection c = connect();
                                PreparedStatement st =
                                        c.prepareStatement("delete from memories where id = ?")) {
                            st.setObject(1, forgotten.id());
                            st.executeUpdate();
                        }
                        Bulk.send(
                                openSearch,
                                List.of(
                                        MemoryDocuments.delete(
                                                ALIAS, forgotten.id().toString(), ivy.routing())),
                                "true");
                    }
                };
        MaintenanceReport report =
                new MaintenanceRunner(settings, copyThenWrite)
                        .run(MaintenanceKind.REINDEX, null, NOW, "test");

        assertThat(aliasedBefore).as("the index behind the alias before each catch-up").hasSize(2);
        assertThat(aliasedBefore.get(0))
                .as("the first catch-up runs before the switch")
                .isNotEqualTo(aliasedBefore.get(1));
        assertThat(seenOnceSwitched)
                .as("the changes made during the copy, in the new index as the alias switched")
                .containsExactly("Ivy plays the viola now", "greyhound indexed");
        assertThat(indexed(ivy, changed.id()).path("content").asText())
                .isEqualTo("Ivy plays the viola now");
        assertThat(indexed(ivy, created.get(0).id())).as("written during the copy").isNotNull();
        assertThat(indexed(ivy, forgotten.id())).as("forgotten during the copy").isNull();
        assertThat(report.changed()).containsEntry("removed", 1L);
        assertThat(report.changed().get("caught_up")).isGreaterThanOrEqualTo(2L);
    }

    @Test
    void reindexUnderAnotherEmbeddingVersionMovesTheStoreToThatVersion() throws Exception {
        // A store of its own, written under fp32; then embedding.version switches to int8.
        String jdbc = TestStores.migratedDatabase("maint_switch_it");
        String oldAlias = "engram-memories-switch-it-minilm-l6-v2-fp32";
        String newAlias = "engram-memories-switch-it-minilm-l6-v2-int8";
        IndexBootstrap.ensure(openSearch, oldAlias, 1, 0);
        Scope zoe = new Scope("switch", "default", "dev", "zoe");
        Instant at = NOW.minus(Duration.ofDays(1));
        Memory peppers =
                memory(zoe, "Zoe grows chili peppers on her roof", "conversation", 0.5, at);
        Memory brother = memory(zoe, "Zoe's brother lives in Oslo", "conversation", 0.5, at);
        try (Connection c =
                java.sql.DriverManager.getConnection(jdbc, postgres.user(), postgres.password())) {
            new MemoryStoreWriter(oldAlias)
                    .write(
                            c,
                            openSearch,
                            scopes -> {},
                            List.of(
                                    new MemoryChange.Created(peppers, "seed", 0),
                                    new MemoryChange.Created(brother, "seed", 0)));
        }
        // What the local stack does on start under the new version: its alias exists, empty.
        IndexBootstrap.ensure(openSearch, newAlias, 1, 0);

        ModelSpec int8 = ModelSpec.MINILM_L6_V2_INT8;
        MaintenanceReport report =
                new MaintenanceRunner(
                                settings(int8.version(), jdbc, newAlias),
                                MaintenanceRunner.inProcess())
                        .run(MaintenanceKind.REINDEX, null, NOW, "test");
        assertThat(report.changed()).containsEntry("indexed", 2L);
        try (OnnxEmbedder model = OnnxEmbedder.load(int8, Path.of(TestStores.modelDir()), 1)) {
            MemoryQuery q = MemoryQuery.forScope(zoe).embeddingVersion(int8.version());
            var hits =
                    IndexInspection.hits(
                            openSearch,
                            newAlias,
                            q.routing(),
                            q.knn(model.embed("Where does Zoe's brother live?"), 5),
                            5);
            assertThat(hits.size()).isEqualTo(2);
            assertThat(hits.get(0).id()).isEqualTo(brother.id().toString());
        }
        // PostgreSQL records the version the index now holds, so a later rewrite from a row (a
        // tier change) keeps it.
        try (Connection c =
                        java.sql.DriverManager.getConnection(
                                jdbc, postgres.user(), postgres.password());
                ResultSet rs =
                        c.createStatement()
                                .executeQuery("select distinct embedding_version from memories")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(int8.version());
            assertThat(rs.next()).as("one version left").isFalse();
        }
    }

    @Test
    void aRunWhoseRunnerDiedIsFailedAsAbandonedAndItsDailyJobAskedForAgain() throws Exception {
        UUID dead;
        UUID alive;
        try (Connection c = connect()) {
            dead = MaintenanceRuns.request(c, MaintenanceKind.DECAY, null, NOW, "schedule");
            MaintenanceRuns.claim(c, dead).orElseThrow();
            alive = MaintenanceRuns.request(c, MaintenanceKind.QUOTA, null, NOW, "test");
            MaintenanceRuns.claim(c, alive).orElseThrow();
            // The first run's process was killed five minutes ago; the other's runner is at it.
            try (PreparedStatement st =
                    c.prepareStatement(
                            "update maintenance_runs set heartbeat_at = now() - interval '5 minutes'"
                                    + " where id = ?")) {
                st.setObject(1, dead);
                st.executeUpdate();
            }
            assertThat(MaintenanceRuns.lastScheduled(c, MaintenanceKind.DECAY))
                    .as("while it looks alive, today's decay counts as asked for")
                    .isPresent();
        }
        try {
            assertThat(runner.runNextRequested()).isEmpty();
            assertThat(runColumn(dead, "status")).isEqualTo("failed");
            assertThat(runColumn(dead, "error")).startsWith("abandoned");
            assertThat(runColumn(dead, "finished_at")).isNotNull();
            assertThat(runColumn(alive, "status")).isEqualTo("running");
            try (Connection c = connect()) {
                assertThat(MaintenanceRuns.lastScheduled(c, MaintenanceKind.DECAY))
                        .as("the schedule asks for the day's decay again")
                        .isEmpty();
            }
        } finally {
            try (Connection c = connect();
                    PreparedStatement st =
                            c.prepareStatement("delete from maintenance_runs where id in (?, ?)")) {
                st.setObject(1, dead);
                st.setObject(2, alive);
                st.executeUpdate();
            }
        }
    }

    @Test
    void aRunBeatsWhileItRuns() throws Exception {
        List<String> seen = new ArrayList<>();
        MaintenanceRunner slow =
                new MaintenanceRunner(
                        settings,
                        (env, name) -> {
                            String[] last = new String[1];
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () -> "t".equals(last[0] = heartbeatPastOneSecond()));
                            seen.add(last[0]);
                            env.execute(name);
                        },
                        Duration.ofMillis(200));
        MaintenanceReport report = slow.run(MaintenanceKind.DECAY, "heartbeat", NOW, "test");
        assertThat(seen).as("heartbeat a second after the start").containsExactly("t");
        assertThat(runColumn(report.runId(), "status")).isEqualTo("succeeded");
    }

    /** Whether the running 'heartbeat' run has beaten more than a second after its start. */
    private static String heartbeatPastOneSecond() {
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select heartbeat_at - started_at > interval '1 second'"
                                                + " from maintenance_runs where tenant_id = 'heartbeat'"
                                                + " and status = 'running'")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The latest run of {@code tenant} with {@code status}. */
    private static UUID lastRun(String tenant, String status) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select id from maintenance_runs where tenant_id = ? and status = ?"
                                        + " order by requested_at desc limit 1")) {
            st.setString(1, tenant);
            st.setString(2, status);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getObject(1, UUID.class);
            }
        }
    }

    /** OpenSearch's flood-stage block on {@code index}: its writes are answered 429. */
    private static void blockWrites(String index, boolean on) {
        IndexInspection.blockWrites(openSearch, index, on);
    }

    private static String runColumn(UUID id, String column) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select " + column + "::text from maintenance_runs where id = ?")) {
            st.setObject(1, id);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }

    private static void assertThatThrownByReindexForOneTenant() {
        assertThatThrownBy(() -> runner.run(MaintenanceKind.REINDEX, "reindex", NOW, "test"))
                .hasMessageContaining("whole index");
    }

    private static String aliasTarget() {
        return IndexInspection.aliasTarget(openSearch, ALIAS);
    }

    // --- seeding and reading -------------------------------------------------------------

    private static Memory seed(Scope scope, String content, String source, double importance)
            throws SQLException {
        Memory m = memory(scope, content, source, importance, NOW.minus(Duration.ofDays(1)));
        write(List.of(new MemoryChange.Created(m, "seed", 0)));
        return m;
    }

    private static Memory seedAt(Scope scope, String content, Instant validFrom)
            throws SQLException {
        Memory m = memory(scope, content, "conversation", 0.6, validFrom);
        write(List.of(new MemoryChange.Created(m, "seed", 0)));
        return m;
    }

    private static Memory aged(String tenant, String project, MemoryType type, int days)
            throws SQLException {
        Scope scope = new Scope(tenant, project, "dev", "user-" + days);
        Instant created = NOW.minus(Duration.ofDays(days));
        Memory m =
                new Memory(
                        UUID.randomUUID(),
                        scope,
                        Optional.empty(),
                        type,
                        "a " + type.wireName() + " memory " + days + " days old",
                        List.of(),
                        "api",
                        List.of(),
                        0.5,
                        Tier.HOT,
                        MemoryStatus.ACTIVE,
                        created,
                        Optional.empty(),
                        Optional.empty(),
                        1,
                        "minilm-l6-v2-fp32",
                        embedder.embed(List.of("memory " + days)).get(0),
                        created);
        write(List.of(new MemoryChange.Created(m, "seed", 0)));
        return m;
    }

    private static Memory memory(
            Scope scope, String content, String source, double importance, Instant validFrom) {
        return new Memory(
                UUID.randomUUID(),
                scope,
                Optional.of("s1"),
                MemoryType.SEMANTIC,
                content,
                List.of("seed"),
                source,
                List.of("turn-" + content.hashCode()),
                importance,
                Tier.HOT,
                MemoryStatus.ACTIVE,
                validFrom,
                Optional.empty(),
                Optional.empty(),
                1,
                "minilm-l6-v2-fp32",
                embedder.embed(List.of(content)).get(0),
                validFrom);
    }

    private static void write(List<MemoryChange> changes) throws SQLException {
        try (Connection c = connect()) {
            new MemoryStoreWriter(ALIAS).write(c, openSearch, scopes -> {}, changes);
        }
    }

    private static void setTimes(UUID id, Instant created, Instant lastAccess, long usage)
            throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "update memories set created_at = ?, last_accessed_at = ?, usage_count = ?"
                                        + " where id = ?")) {
            st.setTimestamp(1, Timestamp.from(created));
            st.setTimestamp(2, lastAccess == null ? null : Timestamp.from(lastAccess));
            st.setLong(3, usage);
            st.setObject(4, id);
            st.executeUpdate();
        }
    }

    private static void rule(String tenant, String project, String category, int keep, int grace)
            throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "insert into retention_rules (id, tenant_id, project_id, category, keep_days,"
                                        + " grace_days) values (?, ?, ?, ?, ?, ?)")) {
            st.setObject(1, UUID.randomUUID());
            st.setString(2, tenant);
            st.setString(3, project);
            st.setString(4, category);
            st.setInt(5, keep);
            st.setInt(6, grace);
            st.executeUpdate();
        }
    }

    private static Connection connect() throws SQLException {
        return java.sql.DriverManager.getConnection(jdbcUrl, postgres.user(), postgres.password());
    }

    private static String column(UUID id, String column) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement("select " + column + " from memories where id = ?")) {
            st.setObject(1, id);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static int events(UUID id, String kind) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select count(*) from memory_events where memory_id = ? and kind = ?")) {
            st.setObject(1, id);
            st.setString(2, kind);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Each row as PostgreSQL renders it whole, for byte-for-byte comparison. */
    private static Map<UUID, String> rows(List<UUID> ids) throws SQLException {
        Map<UUID, String> out = new LinkedHashMap<>();
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select to_jsonb(m)::text from memories m where id = ?")) {
            for (UUID id : ids) {
                st.setObject(1, id);
                try (ResultSet rs = st.executeQuery()) {
                    out.put(id, rs.next() ? rs.getString(1) : null);
                }
            }
        }
        return out;
    }

    private static List<String> currentContents(Scope s) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select content from memories where tenant_id = ? and user_id = ?"
                                        + " and status = 'active' order by content")) {
            st.setString(1, s.tenantId());
            st.setString(2, s.userId());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static UUID idOf(Scope s, String content) throws SQLException {
        try (Connection c = connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "select id from memories where tenant_id = ? and user_id = ? and content = ?")) {
            st.setString(1, s.tenantId());
            st.setString(2, s.userId());
            st.setString(3, content);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getObject(1, UUID.class);
            }
        }
    }

    /** The indexed document of a memory, or null when it is not in the index. */
    private static JsonNode indexed(Scope scope, UUID id) {
        IndexInspection.refresh(openSearch, ALIAS);
        MemoryQuery q = MemoryQuery.forScope(scope).includeHistory(true);
        var hits =
                IndexInspection.hits(
                        openSearch, ALIAS, q.routing(), q.ids(List.of(id.toString())), 1);
        return hits.isEmpty() ? null : hits.get(0).source();
    }
}
