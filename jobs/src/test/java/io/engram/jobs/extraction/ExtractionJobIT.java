package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.cache.CacheKeys;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.ForgetUserEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TopicBootstrap;
import io.engram.events.TurnEvent;
import io.engram.jobs.TestStores;
import io.engram.memory.Scope;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClients;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opensearch.client.opensearch.OpenSearchClient;
import redis.clients.jedis.JedisPooled;

/** The whole write path on real services: Kafka → Flink → PostgreSQL, OpenSearch, Redis. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExtractionJobIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String TOPIC = "engram.turns.job-it";
    private static final String DLQ = "engram.turns.job-it.dlq";
    private static final String ALIAS = "engram-memories-job-it";
    private static final Scope ALICE = new Scope("acme", "default", "dev", "alice");
    private static final Scope BOB = new Scope("acme", "default", "dev", "bob");
    private static final Scope CARL = new Scope("acme", "default", "dev", "carl");
    private static final Scope DANA = new Scope("acme", "beta", "dev", "dana");
    private static final Scope EVE = new Scope("acme", "default", "dev", "eve");
    private static final Scope FRAN = new Scope("acme", "default", "dev", "fran");

    private static PostgresServer postgres;
    private static String jdbcUrl;
    private static ExtractionSettings settings;
    private static OpenSearchClient openSearch;

    @BeforeAll
    static void setUp() throws Exception {
        postgres = SharedServices.postgres();
        jdbcUrl = TestStores.migratedDatabase("job_it");
        String bootstrap = SharedServices.kafka().bootstrapServers();
        TopicBootstrap.ensure(bootstrap, List.of(TOPIC, DLQ), 4, (short) 1);
        openSearch =
                OpenSearchClients.create(SharedServices.openSearch().url(), Duration.ofSeconds(30));
        IndexBootstrap.ensure(openSearch, ALIAS, 1, 0);
        settings = TestSettings.onSharedServices(jdbcUrl, ALIAS, TOPIC, DLQ, 500);
        produceConversations(bootstrap);
        // Eve was forgotten after her finished session was sent, and the forget's notice is not
        // on this topic: as in a replay from before a forget whose notice comes later, only the
        // audit can tell.
        try (Connection c = connect()) {
            c.createStatement()
                    .execute(
                            "insert into forget_audit (tenant_id, project_id, environment, user_id,"
                                    + " memories_deleted) values ('acme', null, 'dev', 'eve', 3)");
        }
    }

    private static void produceConversations(String bootstrap) throws Exception {
        Instant s1 = Instant.parse("2026-03-15T10:00:00Z");
        Instant s2 = Instant.parse("2026-04-02T18:30:00Z");
        List<ChatEvent> events = new ArrayList<>();
        events.add(turn(ALICE, "s1", "s1-1", Role.USER, "Hi!", s1));
        events.add(
                turn(
                        ALICE,
                        "s1",
                        "s1-2",
                        Role.ASSISTANT,
                        "Hello Alice, how can I help?",
                        s1.plusSeconds(5)));
        events.add(
                turn(
                        ALICE,
                        "s1",
                        "s1-3",
                        Role.USER,
                        "My budget for the Hawaii trip is $10,000.",
                        s1.plusSeconds(30)));
        events.add(
                turn(
                        ALICE,
                        "s1",
                        "s1-4",
                        Role.USER,
                        "We are flying to Maui on June 5.",
                        s1.plusSeconds(60)));
        events.add(turn(ALICE, "s1", "s1-5", Role.USER, "thanks!", s1.plusSeconds(90)));
        // Alice forgotten in another project: her sessions and memories here are not touched.
        events.add(
                new ForgetUserEvent(
                        "e-alice-other-forget",
                        "acme",
                        "other",
                        "dev",
                        "alice",
                        s1.plusSeconds(95)));
        events.add(
                new SessionEndEvent(
                        "e-s1-end", "acme", "default", "dev", "alice", "s1", s1.plusSeconds(100)));
        events.add(turn(ALICE, "s2", "s2-1", Role.USER, "Quick update on the trip.", s2));
        events.add(
                turn(
                        ALICE,
                        "s2",
                        "s2-2",
                        Role.USER,
                        "My budget for the Hawaii trip is $12,000 now.",
                        s2.plusSeconds(20)));
        events.add(
                turn(ALICE, "s2", "s2-3", Role.ASSISTANT, "Noted, $12,000.", s2.plusSeconds(25)));
        events.add(
                turn(
                        ALICE,
                        "s2",
                        "s2-4",
                        Role.USER,
                        "Actually, make that $15,000.",
                        s2.plusSeconds(40)));
        events.add(
                new SessionEndEvent(
                        "e-s2-end", "acme", "default", "dev", "alice", "s2", s2.plusSeconds(60)));
        // Carl is forgotten while his turn waits in an open session; the notice is on another
        // partition, so the job may read it before or after the turn: either way nothing stays.
        events.add(
                turn(
                        CARL,
                        "c1",
                        "c1-1",
                        Role.USER,
                        "My budget for the Hawaii trip is $7,000.",
                        s2));
        events.add(
                new ForgetUserEvent(
                        "e-carl-forget", "acme", "default", "dev", "carl", s2.plusSeconds(30)));
        // Dana is forgotten in every project (an admin forget without project_id) while her turn
        // waits in a project where she has no memory yet.
        events.add(
                turn(
                        DANA,
                        "d1",
                        "d1-1",
                        Role.USER,
                        "My budget for the Hawaii trip is $9,000.",
                        s2));
        events.add(
                new ForgetUserEvent(
                        "e-dana-forget",
                        "acme",
                        ForgetUserEvent.ALL_PROJECTS,
                        "dev",
                        "dana",
                        s2.plusSeconds(30)));
        events.add(
                turn(EVE, "e1", "e1-1", Role.USER, "My budget for the Hawaii trip is $4,000.", s2));
        events.add(
                new SessionEndEvent(
                        "e-e1-end", "acme", "default", "dev", "eve", "e1", s2.plusSeconds(60)));
        events.add(
                turn(BOB, "b1", "b1-1", Role.USER, "My budget for the Hawaii trip is $3,000.", s2));
        events.add(
                new SessionEndEvent(
                        "e-b1-end", "acme", "default", "dev", "bob", "b1", s2.plusSeconds(60)));

        // Fran tells two changes in April, each with a time before what she said in March.
        Instant f0 = s1.minus(java.time.Duration.ofDays(1));
        events.add(turn(FRAN, "f0", "f0-1", Role.USER, "I live in Boston.", f0));
        events.add(
                new SessionEndEvent(
                        "e-f0-end", "acme", "default", "dev", "fran", "f0", f0.plusSeconds(60)));
        events.add(turn(FRAN, "f1", "f1-1", Role.USER, "My boyfriend is Jake.", s1));
        events.add(
                new SessionEndEvent(
                        "e-f1-end", "acme", "default", "dev", "fran", "f1", s1.plusSeconds(60)));
        events.add(
                turn(
                        FRAN,
                        "f2",
                        "f2-1",
                        Role.USER,
                        "We packed up and moved to Denver last month.",
                        s2));
        events.add(turn(FRAN, "f2", "f2-2", Role.USER, "Jake and I broke up.", s2.plusSeconds(20)));
        events.add(
                new SessionEndEvent(
                        "e-f2-end", "acme", "default", "dev", "fran", "f2", s2.plusSeconds(60)));
        // Sessions of one user may be read in any order: a leaving is read against what the job
        // has when it comes, so the one Fran leaves is told first in the same session.
        Instant f3 = s2.plus(java.time.Duration.ofDays(1));
        events.add(turn(FRAN, "f3", "f3-1", Role.USER, "I use Spotify.", f3));
        events.add(turn(FRAN, "f3", "f3-2", Role.ASSISTANT, "Noted!", f3.plusSeconds(5)));
        events.add(turn(FRAN, "f3", "f3-3", Role.USER, "how are you?", f3.plusSeconds(60)));
        events.add(turn(FRAN, "f3", "f3-4", Role.ASSISTANT, "Fine, thanks!", f3.plusSeconds(65)));
        events.add(
                turn(
                        FRAN,
                        "f3",
                        "f3-5",
                        Role.USER,
                        "cancelled spotify lol, way too pricey",
                        f3.plusSeconds(120)));
        events.add(
                turn(
                        FRAN,
                        "f3",
                        "f3-6",
                        Role.USER,
                        "I'm learning Spanish on Duolingo.",
                        f3.plusSeconds(130)));
        events.add(turn(FRAN, "f3", "f3-6a", Role.ASSISTANT, "Nice!", f3.plusSeconds(135)));
        events.add(
                turn(FRAN, "f3", "f3-6b", Role.USER, "what's the weather?", f3.plusSeconds(200)));
        events.add(turn(FRAN, "f3", "f3-6c", Role.ASSISTANT, "Sunny.", f3.plusSeconds(205)));
        events.add(
                turn(
                        FRAN,
                        "f3",
                        "f3-7",
                        Role.USER,
                        "gave up on spanish, doing japanese now",
                        f3.plusSeconds(260)));
        events.add(
                new SessionEndEvent(
                        "e-f3-end", "acme", "default", "dev", "fran", "f3", f3.plusSeconds(300)));
        // One piece of news in two bursts, in a session of its own: the leaving, then the new
        // value.
        Instant f4 = f3.plus(java.time.Duration.ofDays(1));
        events.add(turn(FRAN, "f4", "f4-1", Role.USER, "I drive a Ford Focus.", f4));
        events.add(turn(FRAN, "f4", "f4-2", Role.ASSISTANT, "Got it.", f4.plusSeconds(5)));
        events.add(turn(FRAN, "f4", "f4-3", Role.USER, "any tips for sleep?", f4.plusSeconds(60)));
        events.add(turn(FRAN, "f4", "f4-4", Role.ASSISTANT, "Less screens.", f4.plusSeconds(65)));
        events.add(
                turn(
                        FRAN,
                        "f4",
                        "f4-5",
                        Role.USER,
                        "sold the focus last month!! picked up a secondhand Kia Niro",
                        f4.plusSeconds(120)));
        events.add(
                new SessionEndEvent(
                        "e-f4-end", "acme", "default", "dev", "fran", "f4", f4.plusSeconds(300)));
        // A change told without the new value in words no reader knows: the statement stops being
        // current, contradicted by the turn that told it.
        Instant f5 = f4.plus(java.time.Duration.ofDays(1));
        events.add(
                turn(FRAN, "f5", "f5-1", Role.USER, "I play hockey for the Riverside Otters.", f5));
        events.add(turn(FRAN, "f5", "f5-2", Role.ASSISTANT, "Fun!", f5.plusSeconds(5)));
        events.add(turn(FRAN, "f5", "f5-3", Role.USER, "any film tips?", f5.plusSeconds(60)));
        events.add(turn(FRAN, "f5", "f5-4", Role.ASSISTANT, "Try Paddington.", f5.plusSeconds(65)));
        events.add(
                turn(
                        FRAN,
                        "f5",
                        "f5-5",
                        Role.USER,
                        "otters folded 😭 not enough players",
                        f5.plusSeconds(120)));
        events.add(
                new SessionEndEvent(
                        "e-f5-end", "acme", "default", "dev", "fran", "f5", f5.plusSeconds(300)));
        // Changes told across a message: the old value named in one sentence, the new one in
        // another; an amount as a bare number.
        Instant f6 = f5.plus(java.time.Duration.ofDays(1));
        events.add(turn(FRAN, "f6", "f6-1", Role.USER, "My favourite game is Star Harbour.", f6));
        events.add(turn(FRAN, "f6", "f6-2", Role.USER, "I weigh about 90kg.", f6.plusSeconds(30)));
        events.add(turn(FRAN, "f6", "f6-3", Role.ASSISTANT, "Noted.", f6.plusSeconds(35)));
        events.add(
                turn(
                        FRAN,
                        "f6",
                        "f6-4",
                        Role.USER,
                        "uninstalled star harbour lol. Deepwell has eaten my whole weekend",
                        f6.plusSeconds(120)));
        events.add(
                turn(
                        FRAN,
                        "f6",
                        "f6-5",
                        Role.USER,
                        "stepped on the scales today... 83.2!! finally",
                        f6.plusSeconds(180)));
        events.add(
                new SessionEndEvent(
                        "e-f6-end", "acme", "default", "dev", "fran", "f6", f6.plusSeconds(300)));

        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrap,
                                ProducerConfig.ACKS_CONFIG,
                                "all"),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (ChatEvent e : events) {
                producer.send(new ProducerRecord<>(TOPIC, e.key(), EventCodec.encode(e))).get();
            }
            producer.send(
                            new ProducerRecord<>(
                                    TOPIC,
                                    "acme/alice/s1",
                                    "{not json".getBytes(StandardCharsets.UTF_8)))
                    .get();
            String robot =
                    new String(
                                    EventCodec.encode(
                                            turn(ALICE, "s1", "s1-x", Role.USER, "beep", s1)),
                                    StandardCharsets.UTF_8)
                            .replace("\"role\":\"user\"", "\"role\":\"robot\"");
            producer.send(
                            new ProducerRecord<>(
                                    TOPIC, "acme/alice/s1", robot.getBytes(StandardCharsets.UTF_8)))
                    .get();
        }
    }

    private static TurnEvent turn(
            Scope s, String session, String id, Role role, String content, Instant ts) {
        return new TurnEvent(
                "e-" + id,
                s.tenantId(),
                s.projectId(),
                s.environment(),
                s.userId(),
                session,
                id,
                role,
                role == Role.USER
                        ? Optional.of(
                                Character.toUpperCase(s.userId().charAt(0))
                                        + s.userId().substring(1))
                        : Optional.empty(),
                content,
                ts);
    }

    private static void runJob(OffsetsInitializer start) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ExtractionJob.forKafka(settings, true, start).build(env);
        env.execute("extraction-it");
    }

    @Test
    @Order(1)
    void hawaiiBudgetEndsWithOneCurrentValueAndTheOlderOnesInHistory() throws Exception {
        runJob(OffsetsInitializer.earliest());

        List<String> current = budgets("alice", "active");
        assertThat(current).singleElement().satisfies(c -> assertThat(c).contains("$15,000"));
        List<String> history = budgets("alice", "superseded");
        assertThat(history).hasSize(2);
        assertThat(String.join(" | ", history)).contains("$10,000").contains("$12,000");

        assertThat(
                        count(
                                "select count(*) from memory_events e join memories m on m.id = e.memory_id"
                                        + " where m.user_id = 'alice' and e.kind = 'supersede'"))
                .isGreaterThanOrEqualTo(1);
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'alice' and type = 'episodic'"
                                        + " and not ('excerpt' = any(tags))"))
                .as("one summary per session")
                .isEqualTo(2);
        // Each turn that says something is also kept as said, with up to two turns before it. An
        // excerpt is a record, not a claim: the superseded budgets stay quoted, never superseded.
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select count(*), count(*) filter (where status <> 'active'),"
                                                + " count(*) filter (where content like '%$10,000%'),"
                                                + " min(cardinality(source_turn_ids)), max(cardinality(source_turn_ids))"
                                                + " from memories where user_id = 'alice' and 'excerpt' = any(tags)")) {
            rs.next();
            assertThat(rs.getInt(1)).isGreaterThanOrEqualTo(3);
            assertThat(rs.getInt(2)).isZero();
            assertThat(rs.getInt(3)).isPositive();
            assertThat(rs.getInt(4)).isGreaterThanOrEqualTo(1);
            assertThat(rs.getInt(5)).isEqualTo(3);
        }

        // The index agrees (once refreshed): only the current budget is active for Alice.
        IndexInspection.refresh(openSearch, ALIAS);
        MemoryQuery q = MemoryQuery.forScope(ALICE).types(List.of("semantic"));
        List<String> indexed =
                IndexInspection.ids(openSearch, ALIAS, q.routing(), q.bm25("budget Hawaii"), 10);
        assertThat(indexed).hasSize(1);

        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            assertThat(Long.parseLong(redis.get(CacheKeys.generation(ALICE)))).isPositive();
        }
    }

    @Test
    @Order(2)
    void anotherUsersTurnsNeverTouchTheFirstUsersMemories() throws Exception {
        assertThat(budgets("bob", "active"))
                .singleElement()
                .satisfies(c -> assertThat(c).contains("$3,000"));
        assertThat(budgets("bob", "superseded")).isEmpty();
        assertThat(
                        count(
                                "select count(*) from memories a join memories b on a.superseded_by = b.id"
                                        + " where a.user_id <> b.user_id"))
                .isZero();
    }

    @Test
    @Order(3)
    void malformedRecordsLandInTheDeadLetterTopicWithTheirReason() {
        List<String> letters = TestStores.deadLetters(DLQ, "dlq-check", 2);
        assertThat(letters).hasSize(2);
        assertThat(letters)
                .anySatisfy(l -> assertThat(l).contains("not valid JSON").contains("{not json"));
        assertThat(letters).anySatisfy(l -> assertThat(l).contains("role: 'robot'"));
    }

    @Test
    @Order(2)
    void turnsSentBeforeAForgetNeverBecomeMemories() throws Exception {
        assertThat(count("select count(*) from memories where user_id = 'carl'")).isZero();
        assertThat(count("select count(*) from memories where user_id = 'dana'")).isZero();
        assertThat(count("select count(*) from memories where user_id = 'eve'"))
                .as("forgotten per the audit, with no notice")
                .isZero();
    }

    /**
     * "We moved to Denver last month" and "Jake and I broke up", told in April, replace what was
     * told in March — whichever session the job reads first — and the excerpts that told the old
     * values stop being current. "cancelled spotify lol" names no new value: it ends the one it
     * names. "gave up on spanish, doing japanese now" replaces the language in the same words, and
     * "sold the focus last month!! picked up a secondhand Kia Niro" the car, across its two bursts.
     */
    @Test
    @Order(2)
    void valuesToldLaterAreCurrentWhateverTimeTheyName() throws Exception {
        assertThat(facts("fran", "active"))
                .contains(
                        "Fran moved to Denver in March 2026.",
                        "Fran broke up with Jake.",
                        "Fran no longer uses Spotify.",
                        "Fran is learning Japanese.",
                        "Fran drives a Kia Niro.")
                .doesNotContain(
                        "Fran lives in Boston.",
                        "Fran's boyfriend is Jake.",
                        "Fran uses Spotify.",
                        "Fran is learning Spanish on Duolingo.",
                        "Fran drives a Ford Focus.",
                        "Fran no longer drives a Ford Focus.");
        assertThat(facts("fran", "superseded"))
                .contains(
                        "Fran lives in Boston.",
                        "Fran's boyfriend is Jake.",
                        "Fran uses Spotify.",
                        "Fran drives a Ford Focus.");
        for (String old : List.of("I live in Boston.", "My boyfriend is Jake.", "I use Spotify.")) {
            assertThat(
                            count(
                                    "select count(*) from memories where user_id = 'fran'"
                                            + " and status = 'active' and 'excerpt' = any(tags)"
                                            + " and contradicted_by is not null"
                                            + " and content = 'Fran: "
                                            + old
                                            + "'"))
                    .as("the excerpt that told: " + old)
                    .isEqualTo(1);
        }
        // "Spanish on Duolingo" replaced in the same words: the excerpt and the summary that
        // told it are no longer current; the excerpt that tells the change is.
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran'"
                                        + " and status = 'active' and type = 'episodic'"
                                        + " and source_turn_ids && array['f3-6']"
                                        + " and not source_turn_ids && array['f3-7']"
                                        + " and contradicted_by is null"))
                .as("what told Spanish, still current")
                .isZero();
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran'"
                                        + " and status = 'active' and source_turn_ids && array['f3-7']"
                                        + " and contradicted_by is not null"))
                .as("what told the change, contradicted")
                .isZero();
    }

    /**
     * "otters folded 😭 not enough players" names the team of a current statement beside a word of
     * change and gives no new value: the statement stays active, but is contradicted by the excerpt
     * of that turn and no longer current.
     */
    @Test
    @Order(2)
    void aChangeToldWithoutItsNewValueContradictsTheStatement() throws Exception {
        assertThat(facts("fran", "active")).contains("Fran plays hockey for the Riverside Otters.");
        assertThat(
                        count(
                                "select count(*) from memories m join memories e on e.id ="
                                        + " m.contradicted_by where m.user_id = 'fran' and m.status ="
                                        + " 'active' and m.content = 'Fran plays hockey for the"
                                        + " Riverside Otters.' and m.consistency_score < 0.25 and"
                                        + " 'excerpt' = any(e.tags) and e.source_turn_ids[array_length(e.source_turn_ids,"
                                        + " 1)] = 'f5-5'"))
                .as("the statement, contradicted by the excerpt of the turn that told the change")
                .isEqualTo(1);
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran' and content"
                                        + " like '%folded%' and not 'excerpt' = any(tags)"))
                .as("nothing stored as said")
                .isZero();
        // What told the old value in its own turn (its excerpt, the session's summary) is no
        // longer current either; what told the change is.
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran' and status ="
                                        + " 'active' and source_turn_ids && array['f5-1'] and not"
                                        + " source_turn_ids && array['f5-3'] and content ilike"
                                        + " '%otters%' and contradicted_by is null"))
                .as("what told the team, still current")
                .isZero();
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran' and"
                                        + " source_turn_ids && array['f5-5'] and contradicted_by is"
                                        + " not null"))
                .as("what told the change, contradicted")
                .isZero();
    }

    /**
     * "uninstalled star harbour lol. Deepwell has eaten my whole weekend" and "stepped on the
     * scales today... 83.2!!" give the new values in no reader's words: the whole message is read
     * against the statements, and nothing of it is stored as said.
     */
    @Test
    @Order(2)
    void aChangeToldAcrossAMessageReplacesTheValueItNames() throws Exception {
        assertThat(facts("fran", "active"))
                .contains("Fran's favourite game is Deepwell.", "Fran's weight is 83.2kg.")
                .doesNotContain("Fran's favourite game is Star Harbour.", "Fran's weight is 90kg.");
        assertThat(facts("fran", "superseded"))
                .contains("Fran's favourite game is Star Harbour.", "Fran's weight is 90kg.");
        assertThat(
                        count(
                                "select count(*) from memories where user_id = 'fran' and content"
                                        + " like '%eaten my whole weekend%' and not 'excerpt' ="
                                        + " any(tags)"))
                .as("nothing stored as said")
                .isZero();
    }

    private static List<String> facts(String user, String status) throws Exception {
        return semantic(user, status, "");
    }

    @Test
    @Order(4)
    void replayingTheTopicLeavesExactlyTheSameRows() throws Exception {
        String before = snapshot();
        runJob(OffsetsInitializer.earliest());
        assertThat(snapshot()).isEqualTo(before);
    }

    private static String snapshot() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "select id, user_id, type, content, status, version, superseded_by, valid_to,"
                                        + " array_to_string(source_turn_ids, ','), contradicted_by"
                                        + " from memories order by id")) {
            while (rs.next()) {
                for (int i = 1; i <= 10; i++) {
                    out.append(rs.getString(i)).append('|');
                }
                out.append('\n');
            }
        }
        out.append("events=").append(count("select count(*) from memory_events"));
        return out.toString();
    }

    private static List<String> budgets(String user, String status) throws Exception {
        return semantic(user, status, " and content ilike '%budget%'");
    }

    /** The contents of a user's semantic memories of a status, oldest value first. */
    private static List<String> semantic(String user, String status, String and) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = connect();
                var st =
                        c.prepareStatement(
                                "select content from memories where user_id = ? and status = ?"
                                        + " and type = 'semantic'"
                                        + and
                                        + " order by valid_from")) {
            st.setString(1, user);
            st.setString(2, status);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** The single number a query answers. */
    private static int count(String sql) throws Exception {
        try (Connection c = connect();
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Connection connect() throws Exception {
        return java.sql.DriverManager.getConnection(jdbcUrl, postgres.user(), postgres.password());
    }
}
