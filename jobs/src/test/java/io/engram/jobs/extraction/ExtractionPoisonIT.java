package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.embedding.Embedder;
import io.engram.embedding.TestEmbedders;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TopicBootstrap;
import io.engram.events.TurnEvent;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.ExtractionResult;
import io.engram.extraction.ExtractionWindow;
import io.engram.extraction.ExtractiveSummarizer;
import io.engram.extraction.FactExtractor;
import io.engram.extraction.HeuristicExtractor;
import io.engram.jobs.TestStores;
import io.engram.jobs.store.IndexKnownMemories;
import io.engram.jobs.store.KnownMemorySource;
import io.engram.jobs.store.PostgresPastForgets;
import io.engram.jobs.store.RedisOtherWrites;
import io.engram.memory.Memory;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryQuery;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * A record that a stage cannot process, at every stage of the job on real services: it reaches the
 * dead-letter topic with the stage and the reason, and the records after it become memories as
 * usual — the job never fails over it. Parse and store meet real poison (a time past the epoch
 * milliseconds, NUL, a fact PostgreSQL refuses); extraction, embedding and dedup meet a part that
 * fails on one user's records (an extractor that throws, a model that throws, memories that come
 * back from the index damaged, without their vectors). The session windows' own guard is tested in
 * {@link SessionWindowFunctionTest}.
 */
class ExtractionPoisonIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String TOPIC = "engram.turns.poison-it";
    private static final String DLQ = "engram.turns.poison-it.dlq";
    private static final String ALIAS = "engram-memories-poison-it";
    private static final Instant T0 = Instant.parse("2026-03-15T10:00:00Z");

    private static String jdbcUrl;
    private static ExtractionSettings settings;
    private static OpenSearchClient openSearch;

    @BeforeAll
    static void setUp() throws Exception {
        jdbcUrl = TestStores.migratedDatabase("poison_it");
        TopicBootstrap.ensure(
                SharedServices.kafka().bootstrapServers(), List.of(TOPIC, DLQ), 2, (short) 1);
        openSearch = TestStores.openSearch();
        IndexBootstrap.ensure(openSearch, ALIAS, 1, 0);
        settings = TestSettings.onSharedServices(jdbcUrl, ALIAS, TOPIC, DLQ, 500);
    }

    /** Fails on one user's windows; the others are extracted as usual. */
    static final class Extractor implements FactExtractor {
        private final HeuristicExtractor heuristic = new HeuristicExtractor();

        @Override
        public ExtractionResult extract(ExtractionWindow window) {
            String user = window.turns().isEmpty() ? "" : window.turns().get(0).content();
            if (user.contains("POISON-EXTRACT")) {
                throw new IllegalStateException("the extractor cannot read this window");
            }
            if (user.contains("POISON-STORE")) {
                // A fact longer than a memory may be (PostgreSQL's check refuses it).
                return ExtractionResult.Facts.of(
                        List.of(
                                new CandidateFact(
                                        MemoryType.SEMANTIC,
                                        "x".repeat(9000),
                                        0.9,
                                        List.of(),
                                        List.of(window.turns().get(0).turnId()),
                                        window.turns().get(0).ts())));
            }
            return heuristic.extract(window);
        }

        @Override
        public String name() {
            return "poison-test";
        }
    }

    /** The test model, except that it cannot embed one user's texts. */
    static final class PoisonEmbedder implements Embedder {
        private final Embedder model = TestEmbedders.defaultModel();

        @Override
        public List<float[]> embed(List<String> texts) {
            if (texts.stream().anyMatch(t -> t.contains("POISON-EMBED"))) {
                throw new IllegalArgumentException("the model cannot embed this text");
            }
            return model.embed(texts);
        }

        @Override
        public String version() {
            return model.version();
        }

        @Override
        public int dimension() {
            return model.dimension();
        }

        @Override
        public void close() {
            model.close();
        }
    }

    /** Memories of user "dora" come back from the index without their vectors (damaged). */
    static KnownMemorySource knownWithForeignVectors(ExtractionSettings s) {
        IndexKnownMemories index =
                new IndexKnownMemories(
                        s.openSearchUrl(), s.openSearchAuth(), s.indexAlias(), s.knownPerUser());
        return () -> {
            var real = index.open();
            return scope -> {
                if (!scope.userId().equals("dora")) {
                    return real.apply(scope);
                }
                List<Memory> foreign = new ArrayList<>();
                for (MemoryType type : MemoryType.values()) {
                    foreign.add(
                            new Memory(
                                    UUID.randomUUID(),
                                    scope,
                                    Optional.empty(),
                                    type,
                                    "An older memory of Dora's",
                                    List.of(),
                                    "conversation",
                                    List.of("old"),
                                    0.5,
                                    Tier.HOT,
                                    MemoryStatus.ACTIVE,
                                    T0.minusSeconds(86_400),
                                    Optional.empty(),
                                    Optional.empty(),
                                    1,
                                    "minilm-l6-v2-int8",
                                    null,
                                    T0.minusSeconds(86_400)));
                }
                return foreign;
            };
        };
    }

    @Test
    void eachStagesPoisonGoesToTheDeadLetterTopicAndTheNextRecordsBecomeMemories()
            throws Exception {
        List<byte[]> records = new ArrayList<>();
        List<String> healthy = new ArrayList<>();
        // parse: a time beyond what epoch milliseconds hold, and a NUL in the content
        records.add(rawTurn("pat", "+999999999-12-31T23:59:59Z", "My budget is $10,000."));
        records.add(rawTurn("pat", T0.toString(), "I live in Leeds\u0000 now."));
        int n = 0;
        for (String poison : List.of("POISON-EXTRACT", "POISON-EMBED", "dora", "POISON-STORE")) {
            String user = poison.equals("dora") ? "dora" : "user" + n;
            records.addAll(
                    session(
                            user,
                            "My favourite colour is "
                                    + poison
                                    + " green. My budget for the Hawaii trip is $10,000."));
            String next = "healthy" + n++;
            healthy.add(next);
            records.addAll(
                    session(
                            next,
                            "My sister Ana lives in Porto. My budget for the Lisbon trip is"
                                    + " $4,000."));
        }
        produce(records);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ExtractionSettings s = settings;
        ExtractionJob.forKafka(
                        s,
                        true,
                        OffsetsInitializer.earliest(),
                        new ExtractionJob.Parts(
                                st ->
                                        new Extractors(
                                                new Extractor(),
                                                new ExtractiveSummarizer(
                                                        new HeuristicExtractor(), 5)),
                                st -> new PoisonEmbedder(),
                                knownWithForeignVectors(s),
                                new RedisOtherWrites(s.redis()),
                                new PostgresPastForgets(s.postgres()),
                                new io.engram.jobs.store.PostgresSeenTurns(s.postgres())))
                .build(env);
        env.execute("poison-it");

        for (String user : healthy) {
            assertThat(count("select count(*) from memories where user_id = '" + user + "'"))
                    .as("the memories of %s, sent after a poison record", user)
                    .isPositive();
            assertThat(indexed(user)).as("indexed memories of %s", user).isPositive();
        }
        assertThat(count("select count(*) from memories where user_id = 'user0'"))
                .as("the window the extractor failed on writes nothing")
                .isZero();
        assertThat(count("select count(*) from memories where user_id = 'user1'"))
                .as(
                        "the window the model failed on writes nothing: %s",
                        TestStores.rows(
                                jdbcUrl,
                                "select content || ' ' || array_to_string(tags, ',') from memories where user_id = 'user1'"))
                .isZero();
        assertThat(count("select count(*) from memories where user_id = 'user3'"))
                .as("the refused window writes nothing")
                .isZero();

        List<String> letters = deadLetters(7);
        assertThat(letters).anySatisfy(l -> assertThat(l).contains("ts: '+999999999"));
        assertThat(letters).anySatisfy(l -> assertThat(l).contains("NUL"));
        assertThat(letters)
                .anySatisfy(
                        l ->
                                assertThat(l)
                                        .contains("\"kind\":\"extraction_failure\"")
                                        .contains("user0")
                                        .contains("the extractor cannot read this window"));
        assertThat(letters)
                .anySatisfy(
                        l ->
                                assertThat(l)
                                        .contains("\"kind\":\"embedding_failure\"")
                                        .contains("user1")
                                        .contains("the model cannot embed this text"));
        assertThat(letters)
                .anySatisfy(
                        l ->
                                assertThat(l)
                                        .contains("\"kind\":\"dedup_failure\"")
                                        .contains("dora")
                                        .contains("deduplication failed"));
        assertThat(letters)
                .anySatisfy(
                        l ->
                                assertThat(l)
                                        .contains("\"kind\":\"store_failure\"")
                                        .contains("user3")
                                        .contains("PostgreSQL refused it (23514)"));
        assertThat(letters).noneSatisfy(l -> assertThat(l).contains("xxxxxxxxxx"));
    }

    private static List<byte[]> session(String user, String content) {
        Scope scope = new Scope("acme", "default", "dev", user);
        List<ChatEvent> events =
                List.of(
                        new TurnEvent(
                                user + "-t1",
                                "acme",
                                "default",
                                "dev",
                                user,
                                "s1",
                                "t1",
                                Role.USER,
                                Optional.of(
                                        Character.toUpperCase(user.charAt(0)) + user.substring(1)),
                                content,
                                T0),
                        new SessionEndEvent(
                                user + "-end",
                                "acme",
                                "default",
                                "dev",
                                user,
                                "s1",
                                T0.plusSeconds(5)));
        assertThat(scope.userId()).isEqualTo(user);
        return events.stream().map(EventCodec::encode).toList();
    }

    private static byte[] rawTurn(String user, String ts, String content) {
        String json =
                "{\"schema_version\":1,\"event_id\":\"raw-"
                        + UUID.randomUUID()
                        + "\",\"tenant_id\":\"acme\",\"project_id\":\"default\",\"environment\":\"dev\","
                        + "\"user_id\":\""
                        + user
                        + "\",\"session_id\":\"s1\",\"type\":\"turn\",\"turn_id\":\"t1\",\"role\":\"user\","
                        + "\"content\":"
                        + new com.fasterxml.jackson.databind.ObjectMapper()
                                .valueToTree(content)
                                .toString()
                        + ",\"ts\":\""
                        + ts
                        + "\"}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static void produce(List<byte[]> records) throws Exception {
        TestStores.produce(TOPIC, records.stream().map(r -> Map.entry("k", r)).toList());
    }

    private static List<String> deadLetters(int atLeast) {
        return TestStores.deadLetters(DLQ, "poison-dlq-check", atLeast);
    }

    private static long indexed(String user) {
        MemoryQuery q = MemoryQuery.forScope(new Scope("acme", "default", "dev", user));
        IndexInspection.refresh(openSearch, ALIAS);
        return IndexInspection.count(openSearch, ALIAS, q);
    }

    private static int count(String sql) {
        return TestStores.count(jdbcUrl, sql);
    }
}
