package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.cache.CacheKeys;
import io.engram.memory.Scope;
import io.engram.services.Await;
import io.engram.services.OpenSearchNode;
import io.engram.services.RedisServer;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * Recall keeps answering when the search index or the database goes away mid-test, and is not
 * answered from caches Redis could not be told to drop.
 */
class ServingDegradedIT {

    /** Stores Alice's dentist, and returns the search that finds it with nothing degraded. */
    private static JsonObject storeAndFindHealthy(ServingFixture f, String key) throws Exception {
        f.store(
                key,
                new JsonObject()
                        .put("user_id", "alice")
                        .put("content", "Alice's dentist is Dr. Rivera on Elm Street."));
        f.refresh();
        JsonObject body =
                new JsonObject().put("user_id", "alice").put("query", "Who is Alice's dentist?");
        assertThat(f.post("/v1/memories/search", key, body).json().getJsonArray("degraded"))
                .isEmpty();
        return body;
    }

    @Test
    void postgresGoneRecallAnswersFromTheIndexCopy() throws Exception {
        String name = "degraded_pg_it";
        // Every request looks its key up: with PostgreSQL gone, a key that was looked up before
        // keeps its last answer, and one never seen gets 503 instead of a hang or a 500.
        try (ServingFixture f =
                new ServingFixture(
                        name,
                        SharedServices.openSearch().url(),
                        // Every recall asks PostgreSQL: none is served from kept rows.
                        Map.of(
                                "ENGRAM_AUTH_KEY_CACHE_MS",
                                "0",
                                "ENGRAM_SERVER_RECALL_ROW_CACHE_SIZE",
                                "0"))) {
            String key = f.key("acme", "default", "prod", "read", "write");
            String unseenKey = f.key("acme", "default", "prod", "read");
            JsonObject body = storeAndFindHealthy(f, key);
            try (Connection c = SharedServices.postgres().connect("engram")) {
                c.createStatement().execute("alter database " + name + " allow_connections false");
                c.createStatement()
                        .execute(
                                "select pg_terminate_backend(pid) from pg_stat_activity where"
                                        + " datname = '"
                                        + name
                                        + "'");
            }
            try {
                // Another limit: not the cached answer of the healthy request.
                ServingFixture.Reply degraded =
                        f.post("/v1/memories/search", key, body.copy().put("limit", 3));
                assertThat(degraded.status()).as(degraded.raw()).isEqualTo(200);
                assertThat(degraded.json().getJsonArray("degraded").getList()).contains("postgres");
                JsonArray memories = degraded.json().getJsonArray("memories");
                assertThat(memories).hasSize(1);
                assertThat(memories.getJsonObject(0).getString("content"))
                        .isEqualTo("Alice's dentist is Dr. Rivera on Elm Street.");
                assertThat(memories.getJsonObject(0).getString("type")).isNotBlank();

                ServingFixture.Reply unseen = f.post("/v1/memories/search", unseenKey, body);
                assertThat(unseen.status()).as(unseen.raw()).isEqualTo(503);
                assertThat(unseen.json().getString("detail")).contains("key store");

                // Reads that only PostgreSQL can answer: 503 to retry, not a 500 that looks like a
                // bug.
                ServingFixture.Reply list = f.call("GET", "/v1/memories?user_id=alice", key, null);
                assertThat(list.status()).as(list.raw()).isEqualTo(503);
                assertThat(list.json().getString("detail")).contains("unreachable");
                assertThat(list.response().headers().firstValue("Retry-After")).contains("1");
            } finally {
                try (Connection c = SharedServices.postgres().connect("engram")) {
                    c.createStatement()
                            .execute("alter database " + name + " allow_connections true");
                }
            }
        }
    }

    @Test
    void aWriteWhoseCacheInvalidationRedisRefusedIsNotAnsweredFromTheOldCache() throws Exception {
        Path dir = Files.createTempDirectory("engram-degraded-redis");
        try (RedisServer redis = RedisServer.start(dir, 0, false);
                JedisPooled admin = new JedisPooled(URI.create(redis.url()));
                ServingFixture f =
                        new ServingFixture(
                                "degraded_redis_it",
                                SharedServices.openSearch().url(),
                                redis.url(),
                                Map.of())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            JsonObject body = storeAndFindHealthy(f, key);
            assertThat(f.post("/v1/memories/search", key, body).json().getBoolean("cached"))
                    .isTrue();
            Scope alice = new Scope("acme", "default", "prod", "alice");
            String generation = CacheKeys.generation(alice);
            String before = admin.get(generation);

            // Redis answers reads but refuses every write (a primary short of replicas): the
            // write's cache invalidation does not reach it, the cached answer is still there.
            admin.configSet("min-replicas-to-write", "1");
            JsonObject chen =
                    new JsonObject()
                            .put("user_id", "alice")
                            .put("content", "Alice's new dentist is Dr. Chen on Oak Avenue.");
            try {
                ServingFixture.Reply stored = f.post("/v1/memories", key, chen);
                assertThat(stored.status()).as(stored.raw()).isEqualTo(201);
                f.refresh();
                assertThat(admin.get(generation)).isEqualTo(before);
                ServingFixture.Reply fresh = f.post("/v1/memories/search", key, body);
                assertThat(fresh.status()).as(fresh.raw()).isEqualTo(200);
                assertThat(fresh.json().getBoolean("cached")).isNotEqualTo(Boolean.TRUE);
                assertThat(fresh.json().getJsonArray("memories").encode()).contains("Dr. Chen");
            } finally {
                admin.configSet("min-replicas-to-write", "0");
            }
            // The kept invalidation is sent again and lands; cached answers are used again.
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () -> !Objects.equals(admin.get(generation), before)))
                    .as("the invalidation sent again")
                    .isTrue();
            assertThat(
                            f.post("/v1/memories/search", key, body)
                                    .json()
                                    .getJsonArray("memories")
                                    .encode())
                    .contains("Dr. Chen");
            ServingFixture.Reply cached = f.post("/v1/memories/search", key, body);
            assertThat(cached.json().getBoolean("cached")).isTrue();
            assertThat(cached.json().getJsonArray("memories").encode()).contains("Dr. Chen");

            // A forget Redis refuses: the cached answers, which hold content, go once it takes it.
            String answers = CacheKeys.resultIndex(alice);
            assertThat(admin.exists(answers)).isTrue();
            String adminKey = f.key("acme", "default", "prod", "read", "write", "admin");
            admin.configSet("min-replicas-to-write", "1");
            try {
                ServingFixture.Reply forget =
                        f.call("DELETE", "/v1/memories?user_id=alice", adminKey, null);
                assertThat(forget.status()).as(forget.raw()).isEqualTo(200);
                assertThat(admin.exists(answers)).isTrue();
            } finally {
                admin.configSet("min-replicas-to-write", "0");
            }
            assertThat(Await.until(Duration.ofSeconds(10), () -> !admin.exists(answers)))
                    .as("the forgotten user's cached answers deleted")
                    .isTrue();
        }
    }

    @Test
    void openSearchStoppedMidTestStillAnswers200WithDegraded() throws Exception {
        Path home = Files.createTempDirectory("engram-degraded-os");
        OpenSearchNode node = OpenSearchNode.start(home, 0, "384m");
        try (ServingFixture f = new ServingFixture("degraded_it", node.url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            JsonObject body = storeAndFindHealthy(f, key);

            node.close();

            ServingFixture.Reply degraded =
                    f.post("/v1/memories/search", key, body.copy().put("limit", 3));
            assertThat(degraded.status()).as(degraded.raw()).isEqualTo(200);
            assertThat(degraded.json().getJsonArray("degraded").getList()).contains("opensearch");
            assertThat(degraded.json().getJsonArray("memories").encode()).contains("Dr. Rivera");
            // Without the index the request's filters still hold.
            for (JsonObject filter :
                    java.util.List.of(
                            new JsonObject().put("tags", new JsonArray().add("x")),
                            new JsonObject().put("types", new JsonArray().add("procedural")),
                            new JsonObject().put("session_id", "another-session"),
                            new JsonObject().put("from", "2999-01-01T00:00:00Z"))) {
                ServingFixture.Reply filtered =
                        f.post("/v1/memories/search", key, body.copy().mergeIn(filter));
                assertThat(filtered.status()).as(filtered.raw()).isEqualTo(200);
                assertThat(filtered.json().getJsonArray("memories")).as(filter.encode()).isEmpty();
            }
            ServingFixture.Reply excluding =
                    f.post(
                            "/v1/memories/search",
                            key,
                            body.copy().put("exclude_tags", new JsonArray().add("x")));
            assertThat(excluding.json().getJsonArray("memories").encode()).contains("Dr. Rivera");
            assertThat(f.call("GET", "/health/ready", null, null).status()).isEqualTo(503);

            // A write that cannot reach the index fails cleanly and stores nothing half-way.
            ServingFixture.Reply write =
                    f.post(
                            "/v1/memories",
                            key,
                            new JsonObject()
                                    .put("user_id", "alice")
                                    .put("content", "Alice moved to Denver."));
            assertThat(write.status()).isEqualTo(503);
            assertThat(
                            f.call("GET", "/v1/memories?user_id=alice", key, null)
                                    .json()
                                    .getJsonArray("memories")
                                    .size())
                    .isEqualTo(1);
        } finally {
            node.close();
            SharedServices.deleteTree(home);
        }
    }
}
