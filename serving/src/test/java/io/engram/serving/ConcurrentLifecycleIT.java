package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deletes, restores, edits, stores and a forget of one user sent at once: every answer is one a
 * client can act on, and afterwards the index holds exactly the memories PostgreSQL says are active
 * — no orphan either way — and nothing from before the forget.
 */
class ConcurrentLifecycleIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String[] FACTS = {
        "Fern plays the cello.",
        "Fern's sister is called Ines.",
        "Fern works as a nurse in Leeds.",
        "Fern is allergic to peanuts.",
        "Fern drives a green van.",
        "Fern's dog is named Biscuit.",
        "Fern grew up in Cork.",
        "Fern runs on Sunday mornings.",
    };

    private static final String[] LATER = {
        "Fern collects old maps.",
        "Fern speaks Portuguese.",
        "Fern's favourite film is Alien.",
        "Fern bakes sourdough bread.",
        "Fern volunteers at a library.",
        "Fern's flat has a balcony.",
        "Fern learned to sail last year.",
        "Fern keeps a vegetable garden.",
    };

    private static ServingFixture f;
    private static String key;
    private static String admin;
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("lifecycle_it", SharedServices.openSearch().url());
        key = f.key("acme", "default", "prod", "read", "write");
        admin = f.key("acme", "default", "prod", "read", "write", "admin");
        pool = Executors.newFixedThreadPool(24);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        if (f != null) {
            f.close();
        }
    }

    /** A request sent from the pool. */
    private static CompletableFuture<ServingFixture.Reply> async(
            String method, String path, String k, String body) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return f.call(method, path, k, body);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                pool);
    }

    @Test
    void deletesAndRestoresOfOneMemoryAtOnceLeaveTheIndexAgreeingWithPostgres() throws Exception {
        for (int trial = 0; trial < 3; trial++) {
            String user = "dora" + trial;
            String id =
                    f.store(
                                    key,
                                    new JsonObject()
                                            .put("user_id", user)
                                            .put("content", "Dora repairs clocks in Ghent."))
                            .getString("id");
            List<CompletableFuture<ServingFixture.Reply>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                calls.add(
                        i % 2 == 0
                                ? async(
                                        "DELETE",
                                        "/v1/memories/" + id + "?user_id=" + user,
                                        key,
                                        null)
                                : async(
                                        "POST",
                                        "/v1/memories/" + id + "/restore?user_id=" + user,
                                        key,
                                        null));
            }
            int deleted = 0;
            int restored = 0;
            for (var call : calls) {
                ServingFixture.Reply r = call.join();
                assertThat(r.status()).as(r.raw()).isIn(200, 204, 404);
                deleted += r.status() == 204 ? 1 : 0;
                restored += r.status() == 200 ? 1 : 0;
            }
            assertThat(deleted).as("the first delete at least").isGreaterThanOrEqualTo(1);
            // Each restore follows a delete: a memory is never restored twice from one archive.
            assertThat(restored).isLessThanOrEqualTo(deleted);
            f.refresh();
            assertThat(indexActive(user)).isEqualTo(postgresActive(user));
            assertThat(postgresActive(user).size()).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aForgetAmidEditsDeletesAndStoresLeavesNothingFromBeforeIt() throws Exception {
        // The interleavings differ from one trial to the next; each is checked.
        for (int trial = 0; trial < 3; trial++) {
            forgetAmidWrites("fern" + trial);
        }
    }

    private void forgetAmidWrites(String user) throws Exception {
        List<String> before = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            before.add(
                    f.store(
                                    key,
                                    new JsonObject()
                                            .put("user_id", user)
                                            .put(
                                                    "content",
                                                    "Fern's locker number "
                                                            + i
                                                            + " is "
                                                            + (100 + i)
                                                            + "."))
                            .getString("id"));
        }
        List<CompletableFuture<ServingFixture.Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String id = before.get(i);
            calls.add(
                    async(
                            "PATCH",
                            "/v1/memories/" + id + "?user_id=" + user,
                            key,
                            new JsonObject().put("tags", new JsonArray().add("p" + i)).encode()));
            if (i % 2 == 0) {
                calls.add(async("DELETE", "/v1/memories/" + id + "?user_id=" + user, key, null));
            }
            if (i == 4) {
                calls.add(async("DELETE", "/v1/memories?user_id=" + user, admin, null));
            }
            calls.add(
                    async(
                            "POST",
                            "/v1/memories",
                            key,
                            new JsonObject()
                                    .put("user_id", user)
                                    .put(
                                            "content",
                                            "Fern's bike " + i + " is painted blue " + i + ".")
                                    .encode()));
        }
        for (var call : calls) {
            ServingFixture.Reply r = call.join();
            // 409: an edit of a memory a concurrent store superseded.
            assertThat(r.status()).as(r.raw()).isIn(200, 201, 204, 404, 409);
        }
        f.refresh();
        Set<String> active = postgresActive(user);
        Set<String> indexed = indexActive(user);
        assertThat(indexed)
                .as(
                        "the index agrees with PostgreSQL; rows of the differing ids: %s",
                        rowsOf(difference(indexed, active)))
                .isEqualTo(active);
        assertThat(active)
                .as("nothing stored before the forget is active")
                .doesNotContainAnyElementsOf(before);
        assertThat(
                        count(
                                "select count(*) from memories where user_id = '"
                                        + user
                                        + "' and id in ("
                                        + String.join(
                                                ",",
                                                before.stream().map(b -> "'" + b + "'").toList())
                                        + ")"))
                .as("nor kept in any state")
                .isZero();
        // Afterwards the user works as a new one.
        ServingFixture.Reply again =
                f.post(
                        "/v1/memories",
                        key,
                        new JsonObject()
                                .put("user_id", user)
                                .put("content", "Fern moved to Porto."));
        assertThat(again.status()).as(again.raw()).isEqualTo(201);
    }

    private static Set<String> postgresActive(String user) throws Exception {
        var pg = f.config.postgres();
        Set<String> ids = new HashSet<>();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select id from memories where tenant_id = 'acme' and user_id = '"
                                                + user
                                                + "' and status = 'active'")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        out.removeAll(both);
        return out;
    }

    /** Id, status, version and content of the rows with these ids (none when forgotten). */
    private static List<String> rowsOf(Set<String> ids) throws Exception {
        List<String> out = new ArrayList<>();
        var pg = f.config.postgres();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
            for (String id : ids) {
                try (ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select status, version, content from memories where id = '"
                                                + id
                                                + "'")) {
                    out.add(
                            id
                                    + (rs.next()
                                            ? ": "
                                                    + rs.getString(1)
                                                    + " v"
                                                    + rs.getInt(2)
                                                    + " "
                                                    + rs.getString(3)
                                            : ": no row"));
                }
            }
        }
        return out;
    }

    private static int count(String sql) throws Exception {
        var pg = f.config.postgres();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Set<String> indexActive(String user) throws Exception {
        var query =
                io.engram.store.opensearch.IndexInspection.allOf(
                        "tenant_id", "acme", "user_id", user, "status", "active");
        Set<String> ids = new HashSet<>();
        for (var hit :
                f.openSearch
                        .search(
                                s ->
                                        s.index(f.config.memoryIndexAlias())
                                                .query(query)
                                                .size(1000)
                                                .source(src -> src.fetch(false)),
                                Void.class)
                        .hits()
                        .hits()) {
            ids.add(io.engram.store.opensearch.MemoryQuery.hitId(hit));
        }
        return ids;
    }
}
