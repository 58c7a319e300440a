package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.cache.CacheKeys;
import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.UserMemories;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.events.EventCodec;
import io.engram.events.ForgetUserEvent;
import io.engram.events.ParseResult;
import io.engram.events.Role;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.ConversationTurn;
import io.engram.extraction.Excerpts;
import io.engram.extraction.ExtractionResult;
import io.engram.extraction.ExtractionWindow;
import io.engram.extraction.HeuristicExtractor;
import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.engram.serving.recall.RowCache;
import io.engram.store.MemoryStoreWriter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/** The serving tier through real HTTP on real PostgreSQL, OpenSearch, Redis and Kafka. */
class ServingIT {

    private static ServingFixture f;
    private static String acme;
    private static String acmeReader;
    private static String globex;
    private static String admin;

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("serving_it", SharedServices.openSearch().url());
        acme = f.key("acme", "default", "prod", "read", "write");
        acmeReader = f.key("acme", "default", "prod", "read");
        globex = f.key("globex", "default", "prod", "read", "write");
        admin = f.key("ops", "default", "prod", "admin", "operator");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static JsonObject store(String key, String user, String content) throws Exception {
        return f.store(
                key,
                new JsonObject()
                        .put("user_id", user)
                        .put("content", content)
                        .put("tags", new JsonArray().add("test")));
    }

    private static JsonObject search(String key, String user, String query, JsonObject extra)
            throws Exception {
        JsonObject body = new JsonObject().put("user_id", user).put("query", query);
        if (extra != null) {
            body.mergeIn(extra);
        }
        ServingFixture.Reply r = f.post("/v1/memories/search", key, body);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.json();
    }

    private static List<String> contents(JsonObject searchResult) {
        List<String> out = new ArrayList<>();
        JsonArray memories = searchResult.getJsonArray("memories");
        for (int i = 0; i < memories.size(); i++) {
            out.add(memories.getJsonObject(i).getString("content"));
        }
        return out;
    }

    @Test
    void excerptsAndTheFactsTakenFromThemAreNotReturnedTwice() throws Exception {
        Scope carol = new Scope("acme", "default", "prod", "carol");
        Instant t = Instant.parse("2026-03-15T10:00:00Z");
        List<ConversationTurn> turns =
                List.of(
                        new ConversationTurn(
                                "t1",
                                Role.USER,
                                Optional.of("Carol"),
                                "We adopted a rescue dog named Biscuit last weekend.",
                                t),
                        new ConversationTurn(
                                "t2",
                                Role.USER,
                                Optional.of("Dan"),
                                "How is the dog settling in?",
                                t.plusSeconds(30)),
                        new ConversationTurn(
                                "t3",
                                Role.USER,
                                Optional.of("Carol"),
                                "Biscuit sleeps all day on the sofa and hates the rain.",
                                t.plusSeconds(60)));
        ExtractionWindow window = new ExtractionWindow("s1", List.of(), turns, true);
        List<CandidateFact> facts =
                ((ExtractionResult.Facts) new HeuristicExtractor().extract(window)).facts();
        List<CandidateFact> all = new ArrayList<>(facts);
        all.addAll(Excerpts.of(window, 3, 1000, facts));
        try (OnnxEmbedder embedder =
                        OnnxEmbedder.load(
                                ModelSpec.forVersion(f.config.embedding().version()),
                                TestEmbedders.MODEL_DIR,
                                1);
                Connection c =
                        DriverManager.getConnection(
                                f.config.postgres().url(),
                                f.config.postgres().user(),
                                f.config.postgres().password())) {
            List<MemoryChange> changes = new ArrayList<>();
            new ChangePlanner(new DedupPolicy(), embedder.version())
                    .plan(
                            carol,
                            Optional.of("s1"),
                            "conversation",
                            all,
                            embedder.embed(all.stream().map(CandidateFact::content).toList()),
                            new UserMemories(100),
                            t.plusSeconds(90))
                    .forEach(p -> changes.add(p.change()));
            new MemoryStoreWriter(f.config.memoryIndexAlias())
                    .write(c, f.openSearch, scopes -> {}, changes);
        }

        JsonArray found =
                search(acme, "carol", "What is the name of Carol's dog?", null)
                        .getJsonArray("memories");
        assertThat(found).isNotEmpty();
        Set<String> covered = new HashSet<>();
        boolean excerpt = false;
        for (int i = 0; i < found.size(); i++) {
            JsonObject m = found.getJsonObject(i);
            List<String> sources = m.getJsonArray("source_turn_ids").getList();
            // Each memory returned tells at least one turn none of those above it told.
            assertThat(covered.containsAll(sources))
                    .as("memory %d: %s", i, m.getString("content"))
                    .isFalse();
            covered.addAll(sources);
            excerpt |= m.getJsonArray("tags").contains(Excerpts.TAG);
        }
        assertThat(excerpt).as("an excerpt among %s", found).isTrue();
        assertThat(found.getJsonObject(0).getString("content")).contains("Biscuit");
        assertThat(found.size()).isLessThan(all.size());

        JsonArray onlyExcerpts =
                search(
                                acme,
                                "carol",
                                "What is the name of Carol's dog?",
                                new JsonObject().put("tags", new JsonArray().add(Excerpts.TAG)))
                        .getJsonArray("memories");
        assertThat(onlyExcerpts).isNotEmpty();
        for (int i = 0; i < onlyExcerpts.size(); i++) {
            assertThat(onlyExcerpts.getJsonObject(i).getString("content")).startsWith("Carol: ");
        }
        JsonArray noExcerpts =
                search(
                                acme,
                                "carol",
                                "What is the name of Carol's dog?",
                                new JsonObject()
                                        .put("exclude_tags", new JsonArray().add(Excerpts.TAG)))
                        .getJsonArray("memories");
        assertThat(noExcerpts).isNotEmpty();
        for (int i = 0; i < noExcerpts.size(); i++) {
            assertThat(noExcerpts.getJsonObject(i).getJsonArray("tags").contains(Excerpts.TAG))
                    .isFalse();
        }
    }

    @Test
    void storedMemoryIsFoundWithAScoreBreakdown() throws Exception {
        JsonObject stored = store(acme, "alice", "Alice's budget for the Hawaii trip is $10,000.");
        assertThat(stored.getString("decision")).isEqualTo("create");
        f.refresh();
        ServingFixture.Reply reply =
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject()
                                .put("user_id", "alice")
                                .put("query", "What is my budget for the Hawaii trip?"));
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        JsonObject result = reply.json();
        // Each stage that ran, then the whole recall, in milliseconds.
        assertThat(reply.response().headers().firstValue("Server-Timing"))
                .hasValueSatisfying(
                        t ->
                                assertThat(t)
                                        .matches(
                                                "([a-z]+;dur=\\d+\\.\\d{3}, )+total;dur=\\d+\\.\\d{3}")
                                        .contains("cache;dur=", "embed;dur=", "search;dur=")
                                        .contains("hydrate;dur=", "rank;dur="));
        assertThat(result.getBoolean("skipped")).isFalse();
        assertThat(result.getJsonArray("degraded")).isEmpty();
        JsonObject top = result.getJsonArray("memories").getJsonObject(0);
        assertThat(top.getString("id")).isEqualTo(stored.getString("id"));
        assertThat(top.getString("content")).contains("$10,000");
        assertThat(top.getJsonObject("score_breakdown").getDouble("semantic")).isGreaterThan(0.5);
        assertThat(top.getJsonObject("score_breakdown").fieldNames())
                .containsExactlyInAnyOrder(
                        "semantic",
                        "recency",
                        "importance",
                        "usage",
                        "quality",
                        "consistency",
                        "decay");
        assertThat(result.getString("explanation")).contains("k-NN + BM25");

        // The same fact again is a no-op; a new value supersedes it and shows in history.
        assertThat(
                        store(acme, "alice", "Alice's budget for the Hawaii trip is $10,000.")
                                .getString("decision"))
                .isEqualTo("noop");
        JsonObject newer = store(acme, "alice", "Alice's budget for the Hawaii trip is $15,000.");
        assertThat(newer.getString("decision")).isEqualTo("supersede");
        ServingFixture.Reply history =
                f.call(
                        "GET",
                        "/v1/memories/" + newer.getString("id") + "/history?user_id=alice",
                        acme,
                        null);
        assertThat(history.status()).isEqualTo(200);
        assertThat(history.json().getJsonArray("versions").encode())
                .contains("$10,000")
                .contains("superseded");
    }

    @Test
    void aRecalledMemorySaysWhichSessionItWasToldInAndWhen() throws Exception {
        f.store(
                acme,
                new JsonObject()
                        .put("user_id", "sam")
                        .put("content", "Sam ran a charity marathon in Lisbon.")
                        .put("session_id", "session-7")
                        .put("valid_from", "2023-05-08T13:56:00Z"));
        f.store(
                acme,
                new JsonObject()
                        .put("user_id", "sam")
                        .put("content", "Sam keeps a sourdough starter called Bubbles."));
        f.refresh();
        JsonArray memories =
                search(acme, "sam", "When did Sam run the charity marathon?", null)
                        .getJsonArray("memories");
        JsonObject marathon = memories.getJsonObject(0);
        assertThat(marathon.getString("content")).contains("marathon");
        assertThat(marathon.getString("session_id")).isEqualTo("session-7");
        assertThat(marathon.getString("valid_from")).isEqualTo("2023-05-08T13:56:00Z");
        for (Object o : memories) {
            JsonObject m = (JsonObject) o;
            if (m.getString("content").contains("sourdough")) {
                assertThat(m.containsKey("session_id")).isTrue();
                assertThat(m.getString("session_id")).isNull();
            }
        }
    }

    @Test
    void greetingsSkipMemory() throws Exception {
        JsonObject result = search(acme, "alice", "thanks!", null);
        assertThat(result.getBoolean("skipped")).isTrue();
        assertThat(result.getString("explanation")).contains("greeting");
    }

    @Test
    void aQuestionNamingAnAttributeInOtherWordsFindsItsValue() throws Exception {
        store(acme, "dana", "Dana got engaged in April 2026.");
        store(acme, "dana", "Dana works at Shopify.");
        store(acme, "dana", "Dana lives in Boston.");
        store(acme, "dana", "Dana's car is a Tesla.");
        f.refresh();
        assertThat(contents(search(acme, "dana", "Is Dana in a relationship?", null)))
                .first()
                .isEqualTo("Dana got engaged in April 2026.");
        assertThat(contents(search(acme, "dana", "What does Dana drive?", null)))
                .first()
                .isEqualTo("Dana's car is a Tesla.");
    }

    @Test
    void multiQueryFindsWhatTheDirectQueryMisses() throws Exception {
        store(acme, "bob", "Bob's wife Emma loves pottery and watercolor painting.");
        store(acme, "bob", "Bob's car needs new tires before winter.");
        store(acme, "bob", "Bob prefers window seats on long flights.");
        store(acme, "bob", "Bob's team ships the billing service on Fridays.");
        f.refresh();
        String query = "What gift should I get for my wife?";
        JsonObject direct =
                search(
                        acme,
                        "bob",
                        query,
                        new JsonObject().put("multi_query", false).put("limit", 1));
        JsonObject multi =
                search(
                        acme,
                        "bob",
                        query,
                        new JsonObject().put("multi_query", true).put("limit", 1));
        assertThat(multi.getJsonArray("queries").size()).isEqualTo(3);
        assertThat(contents(multi))
                .singleElement()
                .satisfies(c -> assertThat(c).contains("pottery"));
        // Multi-query must rank the hobbies memory at least as well as the direct query does.
        assertThat(multi.getJsonArray("memories").getJsonObject(0).getDouble("score"))
                .isGreaterThanOrEqualTo(
                        direct.getJsonArray("memories")
                                        .getJsonObject(0)
                                        .getString("content")
                                        .contains("pottery")
                                ? direct.getJsonArray("memories")
                                        .getJsonObject(0)
                                        .getDouble("score")
                                : 0.0);
    }

    @Test
    void otherUsersAndTenantsCanNeverReachAMemory() throws Exception {
        String id = store(acme, "carol", "Carol's locker code is 4312.").getString("id");
        f.refresh();
        // another tenant, same user id, knows the memory id
        assertThat(f.call("GET", "/v1/memories/" + id + "?user_id=carol", globex, null).status())
                .isEqualTo(404);
        assertThat(
                        f.call(
                                        "PATCH",
                                        "/v1/memories/" + id + "?user_id=carol",
                                        globex,
                                        "{\"content\":\"hacked\"}")
                                .status())
                .isEqualTo(404);
        assertThat(f.call("DELETE", "/v1/memories/" + id + "?user_id=carol", globex, null).status())
                .isEqualTo(404);
        assertThat(
                        f.call("GET", "/v1/memories/" + id + "/history?user_id=carol", globex, null)
                                .status())
                .isEqualTo(404);
        assertThat(contents(search(globex, "carol", "What is Carol's locker code?", null)))
                .isEmpty();
        assertThat(
                        f.call("GET", "/v1/memories?user_id=carol", globex, null)
                                .json()
                                .getJsonArray("memories"))
                .isEmpty();
        // same tenant, another user, knows the id
        assertThat(f.call("GET", "/v1/memories/" + id + "?user_id=dave", acme, null).status())
                .isEqualTo(404);
        assertThat(f.call("DELETE", "/v1/memories/" + id + "?user_id=dave", acme, null).status())
                .isEqualTo(404);
        assertThat(contents(search(acme, "dave", "What is Carol's locker code?", null))).isEmpty();
        // another project needs an admin key
        assertThat(
                        f.call("GET", "/v1/memories?user_id=carol&project_id=other", acme, null)
                                .status())
                .isEqualTo(403);
        // a read-only key cannot write
        assertThat(
                        f.post(
                                        "/v1/memories",
                                        acmeReader,
                                        new JsonObject()
                                                .put("user_id", "carol")
                                                .put("content", "x y z"))
                                .status())
                .isEqualTo(403);
        // the owner still sees it, unchanged
        ServingFixture.Reply own =
                f.call("GET", "/v1/memories/" + id + "?user_id=carol", acme, null);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.json().getString("content")).isEqualTo("Carol's locker code is 4312.");
    }

    @Test
    void anAdminForgetOfEveryProjectTellsTheWritePlaneOnceForAllOfThem() throws Exception {
        String acmeAdmin = f.key("acme", "default", "prod", "read", "write", "admin");
        String support = f.key("acme", "support", "prod", "read", "write");
        store(acme, "gail", "Gail runs a marathon every spring.");
        store(support, "gail", "Gail's printer jams on double-sided pages.");

        ServingFixture.Reply forget =
                f.call("DELETE", "/v1/memories?user_id=gail", acmeAdmin, null);
        assertThat(forget.status()).as(forget.raw()).isEqualTo(200);
        assertThat(forget.json().getInteger("memories_deleted")).isEqualTo(2);
        assertThat(forget.json().getBoolean("write_plane_notified")).isTrue();

        // one notice for all of them: open sessions in a project where she has no memory yet go
        // too
        assertThat(forgetNotices("gail"))
                .extracting(ForgetUserEvent::projectId)
                .containsExactly(ForgetUserEvent.ALL_PROJECTS);
    }

    /** The forget notices of a user on the fixture's turns topic. */
    private static List<ForgetUserEvent> forgetNotices(String user) {
        List<ForgetUserEvent> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                SharedServices.kafka().bootstrapServers()),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(f.config.kafka().turnsTopic()).stream()
                            .map(i -> new TopicPartition(i.topic(), i.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Await.until(
                    Duration.ofSeconds(30),
                    () -> {
                        for (ConsumerRecord<String, byte[]> r :
                                consumer.poll(Duration.ofMillis(200))) {
                            if (EventCodec.parse(r.value()) instanceof ParseResult.Accepted a
                                    && a.event() instanceof ForgetUserEvent notice
                                    && notice.userId().equals(user)) {
                                out.add(notice);
                            }
                        }
                        return partitions.stream()
                                .allMatch(tp -> consumer.position(tp) >= end.get(tp));
                    });
        }
        return out;
    }

    @Test
    void forgettingAUserLeavesNothingBehind() throws Exception {
        store(acme, "erin", "Erin is allergic to peanuts.");
        store(acme, "erin", "Erin's daughter Mia starts school in September.");
        store(acme, "frank", "Frank plays the cello.");
        f.refresh();
        Scope erin = new Scope("acme", "default", "prod", "erin");
        assertThat(contents(search(acme, "erin", "What is Erin allergic to?", null)))
                .anyMatch(c -> c.contains("peanuts"));
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            // The answer, content and all, is cached off the response path.
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () -> !cachedAnswers(redis, erin).isEmpty()))
                    .isTrue();
            assertThat(redis.get(cachedAnswers(redis, erin).iterator().next())).contains("peanuts");
        }
        // Her two stored texts, her query and its auxiliary questions, kept in this process to
        // spare the model.
        CachingEmbedder texts = f.app.embeddingCache().orElseThrow();
        assertThat(texts.held(erin)).isGreaterThanOrEqualTo(3);
        RowCache rows = f.app.rowCache().orElseThrow();
        assertThat(Await.until(Duration.ofSeconds(10), () -> rows.held(erin) == 2))
                .as("her memories, read for her next recalls")
                .isTrue();
        Scope frank = new Scope("acme", "default", "prod", "frank");
        assertThat(texts.held(frank)).isEqualTo(1);
        ServingFixture.Reply forget = f.call("DELETE", "/v1/memories?user_id=erin", acme, null);
        assertThat(forget.status()).as(forget.raw()).isEqualTo(200);
        assertThat(forget.json().getInteger("memories_deleted")).isEqualTo(2);
        assertThat(forget.json().getBoolean("write_plane_notified")).isTrue();

        assertThat(count("select count(*) from memories where user_id = 'erin'")).isZero();
        assertThat(count("select count(*) from memory_events where user_id = 'erin'")).isZero();
        assertThat(
                        count(
                                "select count(*) from forget_audit where user_id = 'erin' and memories_deleted = 2"))
                .isEqualTo(1);
        assertThat(
                        io.engram.store.opensearch.IndexInspection.count(
                                f.openSearch,
                                f.config.memoryIndexAlias(),
                                io.engram.store.opensearch.IndexInspection.allOf(
                                        "user_id", "erin")))
                .isZero();
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            assertThat(cachedAnswers(redis, erin)).isEmpty();
            assertThat(redis.exists(CacheKeys.resultIndex(erin))).isFalse();
            assertThat(redis.exists(CacheKeys.otherWrites(erin))).isFalse();
        }
        assertThat(texts.held(erin)).isZero();
        assertThat(texts.held(frank)).isEqualTo(1);
        assertThat(rows.held(erin)).isZero();
        assertThat(contents(search(acme, "erin", "What is Erin allergic to?", null))).isEmpty();
        assertThat(count("select count(*) from memories where user_id = 'frank'")).isEqualTo(1);
    }

    /** The keys of the scope's cached answers in Redis. */
    private static Set<String> cachedAnswers(JedisPooled redis, Scope scope) {
        // KEYS takes a glob; braces and slashes are literal in it.
        return redis.keys(CacheKeys.resultPrefix(scope) + "*");
    }

    @Test
    void aWriteInvalidatesTheResultCache() throws Exception {
        store(acme, "gina", "Gina's favorite city is Lisbon.");
        f.refresh();
        JsonObject first = search(acme, "gina", "Which city does Gina like most?", null);
        JsonObject again = search(acme, "gina", "Which city does Gina like most?", null);
        assertThat(again.getBoolean("cached")).isTrue();
        assertThat(again.getJsonArray("memories")).isEqualTo(first.getJsonArray("memories"));

        long generation;
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            generation =
                    Long.parseLong(
                            redis.get(
                                    CacheKeys.generation(
                                            new Scope("acme", "default", "prod", "gina"))));
        }
        store(acme, "gina", "Gina's favorite city is Porto now.");
        f.refresh();
        JsonObject after = search(acme, "gina", "Which city does Gina like most?", null);
        assertThat(after.getBoolean("cached")).isNotEqualTo(Boolean.TRUE);
        assertThat(contents(after).get(0)).contains("Porto");
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            assertThat(
                            Long.parseLong(
                                    redis.get(
                                            CacheKeys.generation(
                                                    new Scope("acme", "default", "prod", "gina")))))
                    .isGreaterThan(generation);
            // and the extraction job hears that someone else changed her memories
            assertThat(
                            redis.get(
                                    CacheKeys.otherWrites(
                                            new Scope("acme", "default", "prod", "gina"))))
                    .isEqualTo("2");
        }
    }

    @Test
    void recallReadsAMemoryAgainOnceItChanged() throws Exception {
        Scope hana = new Scope("acme", "default", "prod", "hana");
        String id = store(acme, "hana", "Hana rides a red bicycle to work.").getString("id");
        store(acme, "hana", "Hana's sister lives in Osaka.");
        f.refresh();
        RowCache rows = f.app.rowCache().orElseThrow();
        assertThat(contents(search(acme, "hana", "How does Hana get to work?", null)))
                .contains("Hana rides a red bicycle to work.");
        // Read off the response path, whole.
        assertThat(Await.until(Duration.ofSeconds(10), () -> rows.held(hana) == 2)).isTrue();

        // Another question (so the cached answer does not serve it): nothing is read again.
        long[] before = rows.stats();
        assertThat(contents(search(acme, "hana", "What does Hana ride?", null)))
                .contains("Hana rides a red bicycle to work.");
        assertThat(rows.stats()[0]).as("recalls hydrated from kept rows").isEqualTo(before[0] + 1);
        assertThat(rows.stats()[1]).as("recalls that read PostgreSQL").isEqualTo(before[1]);

        ServingFixture.Reply patched =
                f.call(
                        "PATCH",
                        "/v1/memories/" + id + "?user_id=hana",
                        acme,
                        "{\"content\":\"Hana rides a blue scooter to work.\"}");
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        f.refresh();
        assertThat(contents(search(acme, "hana", "How does Hana travel to work?", null)))
                .as("the change bumped her generation: the kept rows are not used")
                .contains("Hana rides a blue scooter to work.")
                .doesNotContain("Hana rides a red bicycle to work.");

        assertThat(f.call("DELETE", "/v1/memories/" + id + "?user_id=hana", acme, null).status())
                .isEqualTo(204);
        f.refresh();
        assertThat(contents(search(acme, "hana", "Which vehicle does Hana ride to work?", null)))
                .doesNotContain("Hana rides a blue scooter to work.");
    }

    @Test
    void recallIsRecordedOffTheResponsePath() throws Exception {
        String hank =
                store(acme, "hank", "Hank runs marathons in under three hours.").getString("id");
        String ines = store(globex, "ines", "Ines runs marathons barefoot.").getString("id");
        f.refresh();
        // Two tenants' recalls, most likely written in the same batch: each event keeps its scope.
        search(acme, "hank", "How fast does Hank run a marathon?", null);
        search(globex, "ines", "How does Ines run a marathon?", null);
        for (String[] expected :
                List.of(
                        new String[] {hank, "acme", "hank"},
                        new String[] {ines, "globex", "ines"})) {
            assertThat(
                            io.engram.services.Await.until(
                                    java.time.Duration.ofSeconds(10),
                                    () ->
                                            count(
                                                                    "select usage_count from memories where id = '"
                                                                            + expected[0]
                                                                            + "'")
                                                            >= 1
                                                    && count(
                                                                    "select count(*) from memory_events where memory_id = '"
                                                                            + expected[0]
                                                                            + "' and kind = 'recall' and tenant_id = '"
                                                                            + expected[1]
                                                                            + "' and user_id = '"
                                                                            + expected[2]
                                                                            + "' and project_id = 'default' and environment = 'prod'")
                                                            >= 1))
                    .as(expected[2])
                    .isTrue();
        }
    }

    @Test
    void malformedInputIsRejectedNamingTheField() throws Exception {
        assertProblem(
                f.call("POST", "/v1/memories/search", acme, "{not json"),
                400,
                "body: invalid JSON");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject().put("query", "hello there friend")),
                400,
                "user_id: required");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject().put("user_id", "a").put("query", 42)),
                400,
                "query: must be a string");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject()
                                .put("user_id", "a")
                                .put("query", "hello there")
                                .put("limit", 500)),
                400,
                "limit: must be from 1 to 50");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject()
                                .put("user_id", "a")
                                .put("query", "hello there")
                                .put("colour", "red")),
                400,
                "colour: unknown field");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject().put("user_id", "../../etc").put("query", "hello there")),
                400,
                "user_id:");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject().put("user_id", "a").put("query", "x".repeat(5000))),
                400,
                "query: longer than 4000");
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject()
                                .put("user_id", "a")
                                .put("query", "hi there")
                                .put("weights", new JsonObject().put("semantic", -1))),
                400,
                "semantic");
        assertProblem(
                f.call("GET", "/v1/memories/not-a-uuid?user_id=a", acme, null),
                400,
                "id: must be a UUID");
        assertProblem(
                f.post(
                        "/v1/memories",
                        acme,
                        new JsonObject()
                                .put("user_id", "a")
                                .put("content", "x")
                                .put("type", "gossip")),
                400,
                "type:");
        assertProblem(
                f.call(
                        "POST",
                        "/v1/memories",
                        acme,
                        "{\"user_id\":\"a\",\"content\":\"" + "x".repeat(300_000) + "\"}"),
                413,
                "larger than");
        assertProblem(
                f.post(
                        "/v1/turns",
                        acme,
                        new JsonObject()
                                .put("user_id", "a")
                                .put("session_id", "s")
                                .put(
                                        "turns",
                                        new JsonArray()
                                                .add(
                                                        new JsonObject()
                                                                .put("turn_id", "t1")
                                                                .put("role", "robot")
                                                                .put("content", "hi")))),
                400,
                "turns[0].role");
        assertProblem(f.call("GET", "/v1/memories?user_id=a", null, null), 401, "Authorization");
        assertProblem(
                f.call("GET", "/v1/memories?user_id=a", "ek_" + "0".repeat(40), null),
                401,
                "unknown or revoked");
    }

    @Test
    void turnsAreAcceptedAndKeysAreManagedByAdmins() throws Exception {
        ServingFixture.Reply turns =
                f.post(
                        "/v1/turns",
                        acme,
                        new JsonObject()
                                .put("user_id", "ivy")
                                .put("session_id", "s1")
                                .put("end_session", true)
                                .put(
                                        "turns",
                                        new JsonArray()
                                                .add(
                                                        new JsonObject()
                                                                .put("turn_id", "t1")
                                                                .put("role", "user")
                                                                .put("speaker", "Ivy")
                                                                .put(
                                                                        "content",
                                                                        "My budget for the Hawaii trip is $10,000.")
                                                                .put(
                                                                        "ts",
                                                                        "2026-03-15T10:00:00Z"))));
        assertThat(turns.status()).as(turns.raw()).isEqualTo(202);
        assertThat(turns.json().getInteger("accepted")).isEqualTo(2);

        assertThat(
                        f.post(
                                        "/v1/admin/keys",
                                        acme,
                                        new JsonObject()
                                                .put("tenant_id", "x")
                                                .put("scopes", new JsonArray().add("read")))
                                .status())
                .isEqualTo(403);
        ServingFixture.Reply created =
                f.post(
                        "/v1/admin/keys",
                        admin,
                        new JsonObject()
                                .put("tenant_id", "newco")
                                .put("scopes", new JsonArray().add("read").add("write")));
        assertThat(created.status()).isEqualTo(201);
        String key = created.json().getString("key");
        assertThat(f.call("GET", "/v1/memories?user_id=a", key, null).status()).isEqualTo(200);
        assertThat(f.revokeKey(created.json().getString("id"), admin).status()).isEqualTo(204);
        assertThat(f.call("GET", "/v1/memories?user_id=a", key, null).status()).isEqualTo(401);
        assertThat(f.call("GET", "/openapi.yaml", null, null).raw()).contains("openapi: 3.1.0");
        search(acme, "mira", "Which stages does a recall go through?", null);
        String metrics = f.call("GET", "/metrics", null, null).raw();
        assertThat(metrics).contains("vertx_http_server");
        assertThat(metrics).contains("engram_recall_embeddings_expired_total");
        assertThat(metrics)
                .contains("engram_recall_hydrated_kept_total")
                .contains("engram_recall_hydrated_read_total")
                .contains("engram_recall_rows_kept")
                .contains("engram_peers_listening")
                .contains("engram_peers_notices_received_total");
        // Time per recall stage, so an operator can tell which dependency makes recall slow.
        for (String stage : List.of("cache", "embed", "search", "hydrate", "rank")) {
            assertThat(metrics)
                    .containsPattern(
                            "engram_recall_stage_seconds_count\\{stage=\"" + stage + "\",?} [1-9]");
        }
    }

    @Test
    void aKeyOverItsRateLimitGets429WithRetryAfter() throws Exception {
        String key = newKey(1).getString("key");
        assertThat(f.call("GET", "/v1/memories?user_id=a", key, null).status()).isEqualTo(200);
        ServingFixture.Reply limited = f.call("GET", "/v1/memories?user_id=a", key, null);
        assertProblem(limited, 429, "rate limit of 1 requests/s exceeded");
        assertThat(limited.response().headers().firstValue("Retry-After")).hasValue("1");

        // The same answer when the key is not in the authenticator's cache (it is cleared by a
        // revocation) and is looked up again: the 429 then comes after a PostgreSQL round trip.
        // Unless a second passes between the two requests the bucket is still empty; on a machine
        // that slow the loop tries again.
        boolean limitedAfterLookup = false;
        for (int attempt = 0; attempt < 5 && !limitedAfterLookup; attempt++) {
            f.call("GET", "/v1/memories?user_id=a", key, null);
            f.revokeKey(newKey(10).getString("id"), admin);
            ServingFixture.Reply reply = f.call("GET", "/v1/memories?user_id=a", key, null);
            assertThat(reply.status()).as(reply.raw()).isIn(200, 429);
            limitedAfterLookup = reply.status() == 429;
        }
        assertThat(limitedAfterLookup).isTrue();
    }

    /**
     * A new read key of tenant acme (its {@code key} and {@code id}), limited to {@code rate}/s.
     */
    private static JsonObject newKey(int rate) throws Exception {
        ServingFixture.Reply created =
                f.post(
                        "/v1/admin/keys",
                        admin,
                        new JsonObject()
                                .put("tenant_id", "acme")
                                .put("scopes", new JsonArray().add("read"))
                                .put("rate_limit_per_s", rate));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return created.json();
    }

    @Test
    void retrievalModeIsChosenPerRequest() throws Exception {
        store(acme, "ivan", "Ivan restores old sailboats on weekends.");
        f.refresh();
        for (String mode : List.of("hybrid", "dense", "bm25")) {
            JsonObject r =
                    search(
                            acme,
                            "ivan",
                            "What does Ivan restore on weekends?",
                            new JsonObject().put("retrieval", mode));
            assertThat(contents(r)).as(mode).contains("Ivan restores old sailboats on weekends.");
            assertThat(r.getString("explanation"))
                    .contains(
                            switch (mode) {
                                case "dense" -> "k-NN only";
                                case "bm25" -> "BM25 only";
                                default -> "k-NN + BM25";
                            });
        }
        assertProblem(
                f.post(
                        "/v1/memories/search",
                        acme,
                        new JsonObject()
                                .put("user_id", "ivan")
                                .put("query", "boats?")
                                .put("retrieval", "fuzzy")),
                400,
                "retrieval");
    }

    @Test
    void archivedMemoriesComeBackThroughRestoreForTheirOwnerOnly() throws Exception {
        String id = store(acme, "hana", "Hana collects vintage fountain pens.").getString("id");
        f.refresh();
        var pg = f.config.postgres();
        String before;
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
            before = rowJson(c, id);
            c.setAutoCommit(false);
            // What a quota or consolidation run does to it.
            assertThat(
                            io.engram.store.Archives.archive(
                                    c,
                                    List.of(java.util.UUID.fromString(id)),
                                    java.util.Map.of(),
                                    null,
                                    "manual"))
                    .hasSize(1);
            c.commit();
        }
        assertThat(
                        count(
                                "select count(*) from memories where status = 'archived' and user_id = 'hana'"))
                .isEqualTo(1);

        ServingFixture.Reply other =
                f.call("POST", "/v1/memories/" + id + "/restore?user_id=hana", globex, null);
        assertProblem(other, 404, "no archived memory");
        ServingFixture.Reply reader =
                f.call("POST", "/v1/memories/" + id + "/restore?user_id=hana", acmeReader, null);
        assertThat(reader.status()).isEqualTo(403);

        ServingFixture.Reply restored =
                f.call("POST", "/v1/memories/" + id + "/restore?user_id=hana", acme, null);
        assertThat(restored.status()).as(restored.raw()).isEqualTo(200);
        assertThat(restored.json().getJsonArray("restored")).containsExactly(id);
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
            assertThat(rowJson(c, id)).as("the row is back byte for byte").isEqualTo(before);
        }
        assertThat(contents(search(acme, "hana", "What does Hana collect?", null)))
                .contains("Hana collects vintage fountain pens.");
        ServingFixture.Reply again =
                f.call("POST", "/v1/memories/" + id + "/restore?user_id=hana", acme, null);
        assertProblem(again, 404, "no archived memory");
        assertProblem(
                f.call("POST", "/v1/memories/not-an-id/restore?user_id=hana", acme, null),
                400,
                "id");
    }

    @Test
    void adminsSetRetentionRulesAndRequestMaintenanceRunsForTheirTenant() throws Exception {
        ServingFixture.Reply put =
                f.call(
                        "PUT",
                        "/v1/admin/retention-rules",
                        admin,
                        new JsonObject().put("category", "episodic").put("keep_days", 90).encode());
        assertThat(put.status()).as(put.raw()).isEqualTo(200);
        String ruleId = put.json().getString("id");
        ServingFixture.Reply update =
                f.call(
                        "PUT",
                        "/v1/admin/retention-rules",
                        admin,
                        new JsonObject()
                                .put("category", "episodic")
                                .put("keep_days", 30)
                                .put("grace_days", 1)
                                .encode());
        assertThat(update.json().getString("id")).as("one rule per level").isEqualTo(ruleId);
        f.call(
                "PUT",
                "/v1/admin/retention-rules",
                admin,
                new JsonObject().put("project_id", "p9").put("keep_days", (Integer) null).encode());
        ServingFixture.Reply listed = f.call("GET", "/v1/admin/retention-rules", admin, null);
        assertThat(listed.status()).as(listed.raw()).isEqualTo(200);
        JsonArray rules = listed.json().getJsonArray("rules");
        assertThat(rules).hasSize(2);
        // Tenant-wide rules first, then per project.
        assertThat(rules.getJsonObject(0).getInteger("keep_days")).isEqualTo(30);
        assertThat(rules.getJsonObject(1).getString("project_id")).isEqualTo("p9");
        assertThat(rules.getJsonObject(1).getValue("keep_days")).as("keep forever").isNull();
        assertProblem(
                f.call(
                        "PUT",
                        "/v1/admin/retention-rules",
                        admin,
                        new JsonObject().put("category", "gossip").put("keep_days", 3).encode()),
                400,
                "category");
        assertProblem(
                f.call(
                        "PUT",
                        "/v1/admin/retention-rules",
                        admin,
                        new JsonObject().put("keep_days", 0).encode()),
                400,
                "keep_days");
        assertThat(f.call("GET", "/v1/admin/retention-rules", acme, null).status()).isEqualTo(403);
        assertThat(f.call("DELETE", "/v1/admin/retention-rules/" + ruleId, admin, null).status())
                .isEqualTo(204);
        assertThat(count("select count(*) from retention_rules where tenant_id = 'ops'"))
                .isEqualTo(1);

        ServingFixture.Reply run = f.call("POST", "/v1/admin/maintenance/decay", admin, null);
        assertThat(run.status()).as(run.raw()).isEqualTo(202);
        String runId = run.json().getString("run_id");
        ServingFixture.Reply state =
                f.call("GET", "/v1/admin/maintenance/runs/" + runId, admin, null);
        assertThat(state.json().getString("status")).isEqualTo("requested");
        assertThat(count("select count(*) from maintenance_runs where tenant_id = 'ops'"))
                .isEqualTo(1);
        assertProblem(f.call("POST", "/v1/admin/maintenance/reindex", admin, null), 400, "reindex");
        assertProblem(f.call("POST", "/v1/admin/maintenance/vacuum", admin, null), 404, "job");
        String otherAdmin = f.key("initech", "default", "prod", "admin");
        assertProblem(
                f.call("GET", "/v1/admin/maintenance/runs/" + runId, otherAdmin, null),
                404,
                "no maintenance run");
    }

    private static String rowJson(Connection c, String id) throws Exception {
        try (var st = c.prepareStatement("select to_jsonb(m)::text from memories m where id = ?")) {
            st.setObject(1, java.util.UUID.fromString(id));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static void assertProblem(ServingFixture.Reply r, int status, String detail) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.response().headers().firstValue("Content-Type"))
                .contains("application/problem+json");
        assertThat(r.json().getInteger("status")).isEqualTo(status);
        assertThat(r.json().getString("detail")).contains(detail);
    }

    private static int count(String sql) {
        var pg = f.config.postgres();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
