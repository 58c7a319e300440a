package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the memory API keeps whole under clients that page far, keep metadata, edit at once, retry
 * and send what a store cannot hold: every page, an object in and out, no lost edit, one memory per
 * repeated store, and a 400 naming the field (never the database's words) for bad values.
 */
class MemoryApiIntegrityIT {

    private static ServingFixture f;
    private static String key;

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("integrity_it", SharedServices.openSearch().url());
        key = f.key("acme", "default", "prod", "read", "write");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void everyPageOfAUserWithManyMemoriesIsListedOnce() throws Exception {
        // 260 memories, three to a creation time: pages must break ties by id.
        sql(
                "insert into memories (id, tenant_id, project_id, environment, user_id, type, content,"
                        + " content_hash, source, valid_from, embedding_version, created_at)"
                        + " select gen_random_uuid(), 'acme', 'default', 'prod', 'paula', 'semantic',"
                        + " 'Paula fact ' || i, md5(i::text), 'api', now(), 'v',"
                        + " now() - (i / 3) * interval '1 second' from generate_series(1, 260) i");
        Set<String> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            ServingFixture.Reply page =
                    f.call(
                            "GET",
                            "/v1/memories?user_id=paula&limit=100"
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            key,
                            null);
            assertThat(page.status()).as(page.raw()).isEqualTo(200);
            JsonArray items = page.json().getJsonArray("memories");
            sizes.add(items.size());
            for (int i = 0; i < items.size(); i++) {
                assertThat(seen.add(items.getJsonObject(i).getString("id"))).isTrue();
            }
            cursor = page.json().getString("next_cursor");
        } while (cursor != null && sizes.size() < 10);
        assertThat(sizes).containsExactly(100, 100, 60);
        assertThat(seen).hasSize(260);
        assertThat(
                        f.call(
                                        "GET",
                                        "/v1/memories?user_id=paula&cursor=bm90LWEtY3Vyc29y",
                                        key,
                                        null)
                                .status())
                .isEqualTo(400);
    }

    @Test
    void metadataIsKeptAsAnObjectAndFiltersRecall() throws Exception {
        JsonObject metadata =
                new JsonObject().put("car", "volvo").put("trip", new JsonObject().put("days", 5));
        JsonObject stored =
                f.store(
                        key,
                        new JsonObject()
                                .put("user_id", "mona")
                                .put("content", "Mona drives a Volvo to work every day.")
                                .put("metadata", metadata));
        String id = stored.getString("id");
        ServingFixture.Reply got = f.call("GET", "/v1/memories/" + id + "?user_id=mona", key, null);
        assertThat(got.status()).as(got.raw()).isEqualTo(200);
        assertThat(got.json().getJsonObject("metadata")).isEqualTo(metadata);
        assertThat(f.call("GET", "/v1/memories?user_id=mona", key, null).status()).isEqualTo(200);
        assertThat(
                        f.call("GET", "/v1/memories/" + id + "/history?user_id=mona", key, null)
                                .status())
                .isEqualTo(200);
        f.refresh();
        assertThat(found("mona", "What car does Mona drive?", new JsonObject().put("car", "volvo")))
                .containsExactly(id);
        assertThat(found("mona", "What car does Mona drive?", new JsonObject().put("car", "saab")))
                .isEmpty();
        ServingFixture.Reply patched =
                f.call(
                        "PATCH",
                        "/v1/memories/" + id + "?user_id=mona",
                        key,
                        new JsonObject()
                                .put("metadata", new JsonObject().put("car", "saab"))
                                .encode());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        assertThat(patched.json().getJsonObject("metadata"))
                .isEqualTo(new JsonObject().put("car", "saab"));
        assertThat(found("mona", "What car does Mona drive?", new JsonObject().put("car", "saab")))
                .containsExactly(id);
    }

    @Test
    void concurrentEditsOfOneMemoryAreAllAppliedInTurn() throws Exception {
        String id =
                f.store(
                                key,
                                new JsonObject()
                                        .put("user_id", "nina")
                                        .put("content", "Nina keeps bees on her roof."))
                        .getString("id");
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<CompletableFuture<ServingFixture.Reply>> edits = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String tag = "t" + i;
            edits.add(
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return f.call(
                                            "PATCH",
                                            "/v1/memories/" + id + "?user_id=nina",
                                            key,
                                            new JsonObject()
                                                    .put("tags", new JsonArray().add(tag))
                                                    .encode());
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            },
                            pool));
        }
        for (var edit : edits) {
            ServingFixture.Reply r = edit.join();
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.json().getBoolean("changed")).isTrue();
        }
        pool.shutdown();
        assertThat(
                        count(
                                "select count(distinct version) from memory_events where memory_id = '"
                                        + id
                                        + "' and kind = 'update'"))
                .as("each edit made its own version")
                .isEqualTo(20);
        JsonObject now = f.call("GET", "/v1/memories/" + id + "?user_id=nina", key, null).json();
        assertThat(now.getInteger("version")).isEqualTo(21);
        assertThat(
                        count(
                                "select count(*) from memory_events where memory_id = '"
                                        + id
                                        + "' and kind = 'update'"))
                .isEqualTo(20);
        // The index holds the last version's tags.
        String lastTag = now.getJsonArray("tags").getString(0);
        f.refresh();
        ServingFixture.Reply search =
                f.post(
                        "/v1/memories/search",
                        key,
                        new JsonObject()
                                .put("user_id", "nina")
                                .put("query", "What does Nina keep on her roof?")
                                .put("tags", new JsonArray().add(lastTag)));
        assertThat(search.json().getJsonArray("memories")).hasSize(1);
    }

    @Test
    void anEditBasedOnAnOldVersionIsRefusedWithIfMatch() throws Exception {
        String id =
                f.store(
                                key,
                                new JsonObject()
                                        .put("user_id", "omar")
                                        .put("content", "Omar collects vintage radios."))
                        .getString("id");
        String path = "/v1/memories/" + id + "?user_id=omar";
        ServingFixture.Reply got = f.call("GET", path, key, null);
        assertThat(got.response().headers().firstValue("ETag")).hasValue("\"1\"");
        String body = new JsonObject().put("importance", 0.9).encode();
        ServingFixture.Reply first = f.call("PATCH", path, key, body, Map.of("If-Match", "\"1\""));
        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        assertThat(first.response().headers().firstValue("ETag")).hasValue("\"2\"");
        ServingFixture.Reply stale =
                f.call(
                        "PATCH",
                        path,
                        key,
                        new JsonObject().put("importance", 0.1).encode(),
                        Map.of("If-Match", "\"1\""));
        assertThat(stale.status()).as(stale.raw()).isEqualTo(412);
        assertThat(stale.json().getString("detail")).contains("version 2");
        assertThat(f.call("PATCH", path, key, body, Map.of("If-Match", "yesterday")).status())
                .isEqualTo(400);
    }

    @Test
    void anEditThatChangesNothingIsReportedAndMakesNoVersion() throws Exception {
        String id =
                f.store(
                                key,
                                new JsonObject()
                                        .put("user_id", "pia")
                                        .put("content", "Pia sings in a choir.")
                                        .put("tags", new JsonArray().add("music")))
                        .getString("id");
        String path = "/v1/memories/" + id + "?user_id=pia";
        for (String body :
                List.of(
                        "{\"content\":null}",
                        "{\"tags\":[\"music\"]}",
                        "{\"content\":\"Pia sings in a choir.\"}")) {
            ServingFixture.Reply r = f.call("PATCH", path, key, body);
            assertThat(r.status()).as(body + " " + r.raw()).isEqualTo(200);
            assertThat(r.json().getBoolean("changed")).as(body).isFalse();
            assertThat(r.json().getInteger("version")).as(body).isEqualTo(1);
        }
    }

    @Test
    void theSameWordsStoredManyTimesAtOnceAreOneMemory() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<CompletableFuture<ServingFixture.Reply>> stores = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            stores.add(
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return f.post(
                                            "/v1/memories",
                                            key,
                                            new JsonObject()
                                                    .put("user_id", "quinn")
                                                    .put("content", "Quinn is allergic to kiwi."));
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            },
                            pool));
        }
        List<String> decisions = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (var s : stores) {
            ServingFixture.Reply r = s.join();
            assertThat(r.status()).as(r.raw()).isEqualTo(201);
            decisions.add(r.json().getString("decision"));
            ids.add(r.json().getString("id"));
        }
        pool.shutdown();
        assertThat(decisions).filteredOn("create"::equals).hasSize(1);
        assertThat(decisions).filteredOn("noop"::equals).hasSize(19);
        assertThat(ids).hasSize(1);
        assertThat(count("select count(*) from memories where user_id = 'quinn'")).isEqualTo(1);
    }

    @Test
    void valuesNoStoreCanHoldAre400NamingTheFieldAndNeverTheDatabasesWords() throws Exception {
        String nul = "Rita likes tea\u0000.";
        List<Object[]> cases =
                List.of(
                        new Object[] {"POST", "/v1/memories", store("content", nul), "content"},
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("tags", new JsonArray().add("a\u0000b")),
                            "tags[0]"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("metadata", new JsonObject().put("k", "v\u0000")),
                            "metadata.k"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("metadata", new JsonObject().put("k\u0000", "v")),
                            "metadata key"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("content", "\u200b\u200b \ufeff"),
                            "content"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            "{\"user_id\":\"rita\",\"content\":\"half \\ud83d pair\"}",
                            "content"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("valid_from", "+999999999-12-31T23:59:59Z"),
                            "valid_from"
                        },
                        new Object[] {
                            "POST",
                            "/v1/memories",
                            store("valid_from", "9999-01-01T00:00:00Z"),
                            "valid_from"
                        },
                        new Object[] {
                            "POST", "/v1/turns", turns("+999999999-12-31T23:59:59Z"), "turns[0].ts"
                        },
                        new Object[] {"GET", "/v1/memories?user_id=rita&tag=a%00b", null, "tag"},
                        new Object[] {
                            "POST",
                            "/v1/admin/keys",
                            new JsonObject()
                                    .put("tenant_id", "acme")
                                    .put("scopes", new JsonArray().add("read"))
                                    .put("name", "k\u0000")
                                    .encode(),
                            "name"
                        });
        String admin = f.key("acme", "default", "prod", "admin");
        for (Object[] c : cases) {
            ServingFixture.Reply r = f.call((String) c[0], (String) c[1], admin, (String) c[2]);
            assertThat(r.status()).as(c[1] + " " + c[2] + " → " + r.raw()).isEqualTo(400);
            assertThat(r.json().getString("detail")).as(r.raw()).startsWith((String) c[3]);
            assertThat(r.raw()).doesNotContainIgnoringCase("postgres").doesNotContain("ERROR:");
        }
        assertThat(count("select count(*) from memories where user_id = 'rita'")).isZero();
        // Lengths are characters as a reader counts them: 8,000 emoji fit in content.
        ServingFixture.Reply emoji = f.post("/v1/memories", key, store("🐝".repeat(8000)));
        assertThat(emoji.status()).as(emoji.raw()).isEqualTo(201);
    }

    private static String store(String field, Object value) {
        JsonObject body =
                new JsonObject().put("user_id", "rita").put("content", "Rita likes green tea.");
        body.put(field, value);
        return body.encode();
    }

    private static JsonObject store(String content) {
        return new JsonObject().put("user_id", "rita").put("content", content);
    }

    private static String turns(String ts) {
        return new JsonObject()
                .put("user_id", "rita")
                .put("session_id", "s1")
                .put(
                        "turns",
                        new JsonArray()
                                .add(
                                        new JsonObject()
                                                .put("turn_id", "t1")
                                                .put("role", "user")
                                                .put("content", "Hello there.")
                                                .put("ts", ts)))
                .encode();
    }

    private static List<String> found(String user, String query, JsonObject metadataFilter)
            throws Exception {
        ServingFixture.Reply r =
                f.post(
                        "/v1/memories/search",
                        key,
                        new JsonObject()
                                .put("user_id", user)
                                .put("query", query)
                                .put("metadata_filter", metadataFilter));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        JsonArray memories = r.json().getJsonArray("memories");
        for (int i = 0; i < memories.size(); i++) {
            ids.add(memories.getJsonObject(i).getString("id"));
        }
        return ids;
    }

    private static void sql(String statement) throws Exception {
        var pg = f.config.postgres();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
            c.createStatement().execute(statement);
        }
    }

    private static int count(String sql) throws Exception {
        var pg = f.config.postgres();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
