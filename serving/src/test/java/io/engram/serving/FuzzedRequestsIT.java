package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated hostile input against every operation of the API: a valid request with one field
 * replaced by a hostile value, dropped, doubled by an unknown one, or the body or a parameter
 * broken. Every answer is a 2xx or a 4xx problem document naming the problem, never a 5xx and never
 * a store's own words; another user's memory and the service stay as they were. The seed is
 * printed; {@code -Dfuzz.seed=N} replays a run, {@code -Dfuzz.rounds=N} makes it longer.
 */
class FuzzedRequestsIT {

    /** Words of a store's or runtime's own error text that an answer must never carry. */
    private static final Pattern LEAK =
            Pattern.compile(
                    "(?i)sqlstate|postgres|psql|pg_|syntax error|relation \"|violates|"
                            + "exception|java\\.|io\\.vertx|org\\.|opensearch|lucene|redis|kafka|"
                            + "\\bat [a-z]+\\.[a-z]+\\(|stack");

    private static final String[] HOSTILE_TEXT = {
        "",
        " ",
        "\u0000",
        "a\u0000b",
        "\uD800",
        "x\uDFFFy",
        "' OR 1=1 --",
        "'); drop table memories; --",
        "${jndi:ldap://127.0.0.1/a}",
        "../../etc/passwd",
        "%00",
        "\u202Eevil",
        "\uFEFF",
        "🙂".repeat(3000),
        "a".repeat(9000),
        "<script>alert(1)</script>",
        "{\"$ne\":null}",
        "+999999999-12-31T23:59:59Z",
        "-999999999-01-01T00:00:00Z",
        "0000-00-00T00:00:00Z",
        "2026-13-45T25:61:61Z",
        "NaN",
        "ffffffff-ffff-ffff-ffff-ffffffffffffff",
        "00000000-0000-0000-0000-000000000000",
    };

    private static final Object[] HOSTILE_VALUES = {
        null,
        true,
        0,
        -1,
        Integer.MAX_VALUE,
        Long.MIN_VALUE,
        1e308,
        -1e308,
        4.9e-324,
        new JsonArray(),
        new JsonArray().add(new JsonArray().add(new JsonArray())),
        new JsonObject(),
        new JsonObject().put("a", new JsonObject().put("b", "\u0000")),
    };

    /** Raw bodies that are not the JSON object a body must be. */
    private static final String[] BROKEN_BODIES = {
        "",
        "null",
        "[]",
        "\"text\"",
        "42",
        "{",
        "{\"user_id\":",
        "{\"user_id\":\"u\"}}",
        "{\"user_id\":\"u\",\"user_id\":\"v\"}",
        "\uFEFF{}",
        "{\"a\":" + "[".repeat(3000) + "]".repeat(3000) + "}",
        "{\"a\":1e99999}",
        "{\"a\":\"\\ud800\"}",
        "{'single':'quotes'}",
    };

    private static ServingFixture f;
    private static String key;
    private static String admin;
    private static String canaryKey;
    private static JsonObject canary;
    private static String fuzzMemory;

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("fuzz_it", SharedServices.openSearch().url());
        key = f.key("fuzz", "default", "prod", "read", "write");
        admin = f.key("fuzz", "default", "prod", "read", "write", "admin");
        canaryKey = f.key("fuzz", "default", "prod", "read", "write");
        canary =
                f.store(
                        canaryKey,
                        new JsonObject()
                                .put("user_id", "canary")
                                .put("content", "Canary keeps bees in Lyon.")
                                .put("metadata", new JsonObject().put("hive", "north")));
        fuzzMemory =
                f.store(
                                key,
                                new JsonObject()
                                        .put("user_id", "fuzz-user")
                                        .put("content", "Fuzz likes green tea."))
                        .getString("id");
    }

    @AfterAll
    static void stop() {
        if (f != null) {
            f.close();
        }
    }

    /** One operation: its method, a path maker, the key it needs, and a valid body (or none). */
    private record Operation(
            String method, Supplier<String> path, String key, Supplier<JsonObject> body) {}

    private static List<Operation> operations(String canaryId) {
        String m = "/v1/memories/";
        return List.of(
                new Operation("POST", () -> "/v1/turns", key, FuzzedRequestsIT::turns),
                new Operation("POST", () -> "/v1/memories/search", key, () -> search()),
                new Operation(
                        "POST", () -> "/v1/context", key, () -> search().put("token_budget", 300)),
                new Operation(
                        "POST",
                        () -> "/v1/memories",
                        key,
                        () ->
                                new JsonObject()
                                        .put("user_id", "fuzz-user")
                                        .put("content", "Fuzz lives in Oslo.")
                                        .put("type", "semantic")
                                        .put("tags", new JsonArray().add("home"))
                                        .put("metadata", new JsonObject().put("k", "v"))
                                        .put("importance", 0.5)
                                        .put("valid_from", "2026-01-01T00:00:00Z")),
                new Operation("GET", () -> "/v1/memories?user_id=fuzz-user&limit=5", key, null),
                new Operation("DELETE", () -> "/v1/memories?user_id=fuzz-gone", key, null),
                new Operation("GET", () -> m + fuzzMemory + "?user_id=fuzz-user", key, null),
                new Operation(
                        "GET", () -> m + fuzzMemory + "/history?user_id=fuzz-user", key, null),
                new Operation(
                        "PATCH",
                        () -> m + fuzzMemory + "?user_id=fuzz-user",
                        key,
                        () -> new JsonObject().put("tags", new JsonArray().add("x"))),
                new Operation("DELETE", () -> m + canaryId + "?user_id=fuzz-user", key, null),
                new Operation("POST", () -> m + canaryId + "/restore?user_id=fuzz-user", key, null),
                new Operation(
                        "POST",
                        () -> "/v1/admin/keys",
                        admin,
                        () ->
                                new JsonObject()
                                        .put("project_id", "default")
                                        .put("environment", "prod")
                                        .put("scopes", new JsonArray().add("read"))
                                        .put("name", "fuzzed")
                                        .put("rate_limit_per_s", 10)),
                new Operation("GET", () -> "/v1/admin/keys", admin, null),
                new Operation(
                        "DELETE",
                        () -> "/v1/admin/keys/00000000-0000-0000-0000-000000000001",
                        admin,
                        null),
                new Operation("POST", () -> "/v1/admin/maintenance/decay", admin, null),
                new Operation(
                        "GET",
                        () -> "/v1/admin/maintenance/runs/00000000-0000-0000-0000-000000000001",
                        admin,
                        null),
                new Operation("GET", () -> "/v1/admin/retention-rules", admin, null),
                new Operation(
                        "PUT",
                        () -> "/v1/admin/retention-rules",
                        admin,
                        () ->
                                new JsonObject()
                                        .put("category", "episodic")
                                        .put("keep_days", 30)
                                        .put("grace_days", 7)),
                new Operation(
                        "DELETE",
                        () -> "/v1/admin/retention-rules/00000000-0000-0000-0000-000000000001",
                        admin,
                        null));
    }

    private static JsonObject turns() {
        return new JsonObject()
                .put("user_id", "fuzz-user")
                .put("session_id", "s1")
                .put(
                        "turns",
                        new JsonArray()
                                .add(
                                        new JsonObject()
                                                .put("turn_id", "t1")
                                                .put("role", "user")
                                                .put("content", "I moved to Oslo.")
                                                .put("ts", "2026-01-01T00:00:00Z")));
    }

    private static JsonObject search() {
        return new JsonObject()
                .put("user_id", "fuzz-user")
                .put("query", "Where does Fuzz live?")
                .put("limit", 5)
                .put("weights", new JsonObject().put("semantic", 1.0))
                .put("types", new JsonArray().add("semantic"))
                .put("from", "2025-01-01T00:00:00Z");
    }

    @Test
    void hostileInputIsRefusedNamingTheProblemAndChangesNothingElse() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int rounds = Integer.getInteger("fuzz.rounds", 30);
        System.out.println("FuzzedRequestsIT seed " + seed + " (-Dfuzz.seed to replay)");
        Random random = new Random(seed);
        List<Operation> ops = operations(canary.getString("id"));
        List<String> failures = new ArrayList<>();
        int sent = 0;
        int refused = 0;
        for (int round = 0; round < rounds; round++) {
            for (Operation op : ops) {
                Request r = mutate(op, random);
                sent++;
                ServingFixture.Reply reply;
                try {
                    reply = f.call(op.method(), r.path(), op.key(), r.body());
                } catch (java.io.IOException e) {
                    failures.add(
                            op.method()
                                    + " "
                                    + abbreviate(r.path())
                                    + " "
                                    + abbreviate(r.body())
                                    + " -> "
                                    + e);
                    continue;
                }
                String problem = check(reply);
                if (problem != null) {
                    failures.add(
                            op.method()
                                    + " "
                                    + abbreviate(r.path())
                                    + " "
                                    + abbreviate(r.body())
                                    + " -> "
                                    + reply.status()
                                    + " "
                                    + abbreviate(reply.raw())
                                    + ": "
                                    + problem);
                }
                if (reply.status() >= 400) {
                    refused++;
                }
            }
        }
        System.out.printf("FuzzedRequestsIT: %d requests, %d refused with 4xx%n", sent, refused);
        assertThat(failures).as("seed " + seed).isEmpty();

        // Another user's memory is as it was, and the service still answers.
        ServingFixture.Reply kept =
                f.call(
                        "GET",
                        "/v1/memories/" + canary.getString("id") + "?user_id=canary",
                        canaryKey,
                        null);
        assertThat(kept.status()).as(kept.raw()).isEqualTo(200);
        assertThat(kept.json().getString("content")).isEqualTo("Canary keeps bees in Lyon.");
        assertThat(kept.json().getString("status")).isEqualTo("active");
        assertThat(kept.json().getInteger("version")).isEqualTo(1);
        assertThat(kept.json().getJsonObject("metadata"))
                .isEqualTo(new JsonObject().put("hive", "north"));
        ServingFixture.Reply ready = f.call("GET", "/health/ready", null, null);
        assertThat(ready.status()).isEqualTo(200);
        // No extraction job reads this fixture's turns: the write plane's own check says so,
        // readiness only reports it.
        assertThat(ready.json().getJsonObject("write_plane").getString("state"))
                .isIn("caught_up", "catching_up", "stalled", "unknown");
        ServingFixture.Reply writePlane = f.call("GET", "/health/write-plane", null, null);
        assertThat(writePlane.status())
                .isEqualTo("stalled".equals(writePlane.json().getString("state")) ? 503 : 200);
    }

    private record Request(String path, String body) {}

    /** The operation's request with one thing broken. */
    private static Request mutate(Operation op, Random random) {
        String path = op.path().get();
        JsonObject body = op.body() == null ? null : op.body().get();
        int kind = random.nextInt(body == null ? 2 : 6);
        switch (kind) {
            case 0 -> path = mutatePath(path, random);
            case 1 -> path = addParameter(path, random);
            case 2 -> {
                return new Request(path, BROKEN_BODIES[random.nextInt(BROKEN_BODIES.length)]);
            }
            case 3 -> replaceField(body, random);
            case 4 -> body.remove(pick(new ArrayList<>(body.fieldNames()), random));
            default -> body.put("unknown_" + random.nextInt(9), hostile(random));
        }
        return new Request(path, body == null ? null : body.encode());
    }

    /** A field's value, or one nested in it, replaced by a hostile one. */
    private static void replaceField(JsonObject body, Random random) {
        JsonObject target = body;
        String field = pick(new ArrayList<>(target.fieldNames()), random);
        Object inner = target.getValue(field);
        if (random.nextBoolean()
                && inner instanceof JsonArray a
                && a.getValue(0) instanceof JsonObject o) {
            target = o;
            field = pick(new ArrayList<>(o.fieldNames()), random);
        } else if (random.nextBoolean() && inner instanceof JsonObject o && !o.isEmpty()) {
            target = o;
            field = pick(new ArrayList<>(o.fieldNames()), random);
        }
        target.put(field, hostile(random));
    }

    /** A path segment (the memory id) or a query parameter's value replaced. */
    private static String mutatePath(String path, Random random) {
        int q = path.indexOf('?');
        String bare = q < 0 ? path : path.substring(0, q);
        String query = q < 0 ? "" : path.substring(q + 1);
        if (!query.isEmpty() && random.nextBoolean()) {
            String[] params = query.split("&");
            int i = random.nextInt(params.length);
            String name = params[i].substring(0, params[i].indexOf('='));
            params[i] = name + "=" + encode(hostileText(random));
            return bare + "?" + String.join("&", params);
        }
        String[] segments = bare.split("/");
        int last = segments.length - 1;
        segments[last] = encode(hostileText(random));
        if (segments[last].isEmpty()) {
            segments[last] = "%20";
        }
        return String.join("/", segments) + (query.isEmpty() ? "" : "?" + query);
    }

    private static String addParameter(String path, Random random) {
        String[] names = {
            "user_id", "project_id", "limit", "cursor", "tag", "type", "status", "tier", "tenant_id"
        };
        return path
                + (path.contains("?") ? "&" : "?")
                + pick(List.of(names), random)
                + "="
                + encode(hostileText(random));
    }

    private static Object hostile(Random random) {
        return random.nextBoolean()
                ? hostileText(random)
                : HOSTILE_VALUES[random.nextInt(HOSTILE_VALUES.length)];
    }

    private static String hostileText(Random random) {
        return HOSTILE_TEXT[random.nextInt(HOSTILE_TEXT.length)];
    }

    private static <T> T pick(List<T> items, Random random) {
        return items.get(random.nextInt(items.size()));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** What is wrong with an answer, or null. */
    private static String check(ServingFixture.Reply reply) {
        int status = reply.status();
        if (status >= 500) {
            return "a server error";
        }
        if (status < 400) {
            return null;
        }
        String type = reply.response().headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("application/problem+json")) {
            return "not a problem document";
        }
        if (reply.json() == null) {
            return "a problem document that is not JSON";
        }
        String detail = reply.json().getString("detail", "");
        if (detail.isBlank()) {
            return "no detail";
        }
        if (LEAK.matcher(detail).find()) {
            return "the detail carries a dependency's words";
        }
        return null;
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "(no body)";
        }
        return s.length() <= 160 ? s : s.substring(0, 160) + "…(" + s.length() + " chars)";
    }
}
