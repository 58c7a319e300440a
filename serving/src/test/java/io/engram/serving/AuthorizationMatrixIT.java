package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every operation of the API called by every kind of caller that must not reach tenant acme's
 * memory, keys, runs or rules — no key, another tenant's admin and writer, acme's other project, a
 * read-only and a write-only key — with the status each must get. Afterwards acme's memory, keys
 * and rule are as they were: a caller's own-tenant call (a forget, a store) never touches them.
 */
class AuthorizationMatrixIT {

    private static ServingFixture f;
    private static final Map<String, String> IDS = new LinkedHashMap<>();

    /** One operation: method, path and body, with {memory}, {key}, {run}, {rule} filled in. */
    private record Op(String name, String method, String path, String body) {
        String path(String memory, String user) {
            return fill(path, memory, user);
        }

        String body(String memory, String user) {
            return body == null ? null : fill(body, memory, user);
        }

        private static String fill(String text, String memory, String user) {
            String out = text.replace("{memory}", memory).replace("ursula", user);
            for (var e : IDS.entrySet()) {
                out = out.replace("{" + e.getKey() + "}", e.getValue());
            }
            return out;
        }
    }

    private static final String STORE =
            "{\"user_id\":\"ursula\",\"content\":\"Ursula rows at dawn.\"}";

    private static final List<Op> OPS =
            List.of(
                    new Op(
                            "turns",
                            "POST",
                            "/v1/turns",
                            "{\"user_id\":\"ursula\",\"session_id\":\"s1\",\"turns\":[{\"turn_id\":\"t1\","
                                    + "\"role\":\"user\",\"content\":\"I row at dawn.\"}]}"),
                    new Op(
                            "search",
                            "POST",
                            "/v1/memories/search",
                            "{\"user_id\":\"ursula\",\"query\":\"When does Ursula row?\"}"),
                    new Op(
                            "context",
                            "POST",
                            "/v1/context",
                            "{\"user_id\":\"ursula\",\"query\":\"When does Ursula row?\"}"),
                    new Op(
                            "store",
                            "POST",
                            "/v1/memories",
                            "{\"user_id\":\"ursula\",\"content\":\"Ursula swims at noon.\"}"),
                    new Op("list", "GET", "/v1/memories?user_id=ursula", null),
                    new Op("get", "GET", "/v1/memories/{memory}?user_id=ursula", null),
                    new Op("history", "GET", "/v1/memories/{memory}/history?user_id=ursula", null),
                    new Op(
                            "patch",
                            "PATCH",
                            "/v1/memories/{memory}?user_id=ursula",
                            "{\"content\":\"Ursula was hacked.\"}"),
                    new Op("restore", "POST", "/v1/memories/{memory}/restore?user_id=ursula", null),
                    new Op("delete", "DELETE", "/v1/memories/{memory}?user_id=ursula", null),
                    new Op("forget", "DELETE", "/v1/memories?user_id=ursula", null),
                    new Op(
                            "create key",
                            "POST",
                            "/v1/admin/keys",
                            "{\"tenant_id\":\"acme\",\"scopes\":[\"admin\",\"read\"]}"),
                    new Op("list keys", "GET", "/v1/admin/keys?tenant_id=acme", null),
                    new Op("revoke key", "DELETE", "/v1/admin/keys/{key}", null),
                    new Op("request run", "POST", "/v1/admin/maintenance/decay", null),
                    new Op("get run", "GET", "/v1/admin/maintenance/runs/{run}", null),
                    new Op("list rules", "GET", "/v1/admin/retention-rules", null),
                    new Op(
                            "put rule",
                            "PUT",
                            "/v1/admin/retention-rules",
                            "{\"category\":\"episodic\",\"keep_days\":3}"),
                    new Op("delete rule", "DELETE", "/v1/admin/retention-rules/{rule}", null));

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("authz_it", SharedServices.openSearch().url());
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void nobodyButAcmesOwnKeysReachesAcmesMemoryKeysRunsAndRules() throws Exception {
        String acmeAdmin = f.key("acme", "default", "prod", "read", "write", "admin");
        String memory = f.store(acmeAdmin, new JsonObject(STORE)).getString("id");
        ServingFixture.Reply key =
                f.post(
                        "/v1/admin/keys",
                        acmeAdmin,
                        new JsonObject()
                                .put("tenant_id", "acme")
                                .put("scopes", new JsonArray().add("read")));
        IDS.put("key", key.json().getString("id"));
        IDS.put(
                "run",
                f.call("POST", "/v1/admin/maintenance/decay", acmeAdmin, null)
                        .json()
                        .getString("run_id"));
        IDS.put(
                "rule",
                f.call(
                                "PUT",
                                "/v1/admin/retention-rules",
                                acmeAdmin,
                                "{\"category\":\"social\",\"keep_days\":30}")
                        .json()
                        .getString("id"));
        // A memory of another acme user, for the write-only key's allowed edits and forget.
        String own =
                f.store(
                                acmeAdmin,
                                new JsonObject()
                                        .put("user_id", "wendy")
                                        .put("content", "Wendy keeps a rowing log."))
                        .getString("id");

        Map<String, String> callers = new LinkedHashMap<>();
        callers.put("no key", null);
        callers.put("other tenant's admin", f.key("globex", "default", "prod", "admin"));
        callers.put("other tenant's writer", f.key("globex", "default", "prod", "read", "write"));
        callers.put("acme's other project", f.key("acme", "support", "prod", "read", "write"));
        callers.put("read-only", f.key("acme", "default", "prod", "read"));
        callers.put("write-only", f.key("acme", "default", "prod", "write"));

        List<String> wrong = new ArrayList<>();
        for (var caller : callers.entrySet()) {
            for (Op op : OPS) {
                int expected = expected(caller.getKey(), op.name());
                boolean writeOnly = caller.getKey().equals("write-only");
                String target = writeOnly ? own : memory;
                String user = writeOnly ? "wendy" : "ursula";
                ServingFixture.Reply r =
                        f.call(
                                op.method(),
                                op.path(target, user),
                                caller.getValue(),
                                op.body(target, user));
                if (r.status() != expected) {
                    wrong.add(
                            caller.getKey()
                                    + " × "
                                    + op.name()
                                    + ": "
                                    + r.status()
                                    + " (expected "
                                    + expected
                                    + ") "
                                    + r.raw());
                }
                boolean acmesOwn = caller.getKey().endsWith("-only");
                if (!acmesOwn && r.raw() != null && r.status() < 300) {
                    assertThat(r.raw())
                            .as(caller.getKey() + " × " + op.name())
                            .doesNotContain("Ursula rows at dawn")
                            .doesNotContain(memory);
                }
            }
        }
        assertThat(wrong).isEmpty();

        ServingFixture.Reply still =
                f.call("GET", "/v1/memories/" + memory + "?user_id=ursula", acmeAdmin, null);
        assertThat(still.status()).isEqualTo(200);
        assertThat(still.json().getString("content")).isEqualTo("Ursula rows at dawn.");
        assertThat(still.json().getInteger("version")).isEqualTo(1);
        JsonArray keys =
                f.call("GET", "/v1/admin/keys", acmeAdmin, null).json().getJsonArray("keys");
        for (int i = 0; i < keys.size(); i++) {
            JsonObject k = keys.getJsonObject(i);
            assertThat(k.getString("tenant_id")).isEqualTo("acme");
            assertThat(k.getBoolean("revoked")).as(k.encode()).isFalse();
        }
        assertThat(f.call("GET", "/v1/admin/retention-rules", acmeAdmin, null).raw())
                .contains(IDS.get("rule"));
        // An operator key manages every tenant's keys; an admin cannot make one.
        assertThat(
                        f.post(
                                        "/v1/admin/keys",
                                        acmeAdmin,
                                        new JsonObject()
                                                .put("tenant_id", "acme")
                                                .put("scopes", new JsonArray().add("operator")))
                                .status())
                .isEqualTo(403);
        String operator = f.key("ops", "default", "prod", "admin", "operator");
        assertThat(f.call("GET", "/v1/admin/keys?tenant_id=acme", operator, null).status())
                .isEqualTo(200);
        assertThat(
                        f.call("GET", "/v1/memories/" + memory + "?user_id=ursula", operator, null)
                                .status())
                .as("operator reads no other tenant's memories")
                .isEqualTo(404);
    }

    /** What each caller must get for each operation on acme's memory, key, run and rule. */
    private static int expected(String caller, String op) {
        boolean admin = op.contains("key") || op.contains("run") || op.contains("rule");
        boolean read = List.of("search", "context", "list", "get", "history").contains(op);
        boolean byId = List.of("get", "history", "patch", "restore", "delete").contains(op);
        return switch (caller) {
            case "no key" -> 401;
            case "other tenant's admin" -> {
                if (op.equals("create key") || op.equals("list keys")) {
                    yield 403;
                }
                if (op.equals("revoke key") || op.equals("get run") || op.equals("delete rule")) {
                    yield 404;
                }
                yield ownTenant(op, byId);
            }
            case "other tenant's writer", "acme's other project" ->
                    admin ? 403 : ownTenant(op, byId);
            case "read-only" -> admin || !read ? 403 : 200;
            case "write-only" -> {
                if (admin || read) {
                    yield 403;
                }
                yield switch (op) {
                    case "turns" -> 202;
                    case "store" -> 201;
                    case "delete" -> 204;
                    // the memory is not archived, so there is nothing to restore
                    case "restore" -> 404;
                    default -> 200;
                };
            }
            default -> throw new IllegalArgumentException(caller);
        };
    }

    /** A call that reaches only the caller's own tenant or project: acme's ids are not found. */
    private static int ownTenant(String op, boolean byId) {
        if (byId) {
            return 404;
        }
        return switch (op) {
            case "turns", "request run" -> 202;
            case "store" -> 201;
            default -> 200;
        };
    }
}
