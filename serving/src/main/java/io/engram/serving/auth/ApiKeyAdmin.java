package io.engram.serving.auth;

import io.engram.auth.ApiKeys;
import io.engram.memory.Scope;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/** Admin endpoints for API keys: create (the key is shown once), list, revoke. */
public final class ApiKeyAdmin {

    public static final Set<String> CREATE =
            Set.of("tenant_id", "project_id", "environment", "scopes", "name", "rate_limit_per_s");

    private final Pool pool;
    private final Supplier<Future<Void>> afterRevoke;

    /**
     * {@code afterRevoke} makes the revocation count at once: it drops the cached key lookups of
     * this instance and of the others.
     */
    public ApiKeyAdmin(Pool pool, Supplier<Future<Void>> afterRevoke) {
        this.pool = pool;
        this.afterRevoke = afterRevoke;
    }

    /**
     * A new key from a create request of {@code caller}; an optional field sent as null counts as
     * left out. An admin key creates keys of its own tenant; another tenant's key, or a key with
     * the operator scope, takes an operator key.
     */
    public Future<JsonObject> create(Principal caller, JsonObject body) {
        String tenant = caller.manageableTenant("tenant_id", Fields.id(body, "tenant_id"));
        String project =
                Objects.requireNonNullElse(Fields.optionalId(body, "project_id"), "default");
        String environment =
                Objects.requireNonNullElse(Fields.optionalId(body, "environment"), "production");
        List<String> scopes =
                Fields.enumValues(
                        body, "scopes", Set.of("read", "write", "admin", Principal.OPERATOR));
        if (scopes.isEmpty()) {
            throw Problem.badRequest("scopes: at least one of read, write, admin, operator");
        }
        if (scopes.contains(Principal.OPERATOR) && !caller.isOperator()) {
            throw Problem.forbidden("scopes: only an operator key can grant 'operator'");
        }
        String name = Objects.requireNonNullElse(Fields.optionalText(body, "name", 200), "");
        Integer rate = Fields.optionalInteger(body, "rate_limit_per_s", 1, 100_000);
        String key = ApiKeys.generate();
        UUID id = UUID.randomUUID();
        Scope.requireId("tenant_id", tenant);
        return pool.preparedQuery(
                        "insert into api_keys (id, key_prefix, key_hash, tenant_id, project_id, environment, scopes, name, rate_limit_per_s)"
                                + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
                .execute(
                        Tuple.tuple()
                                .addUUID(id)
                                .addString(ApiKeys.displayPrefix(key))
                                .addString(ApiKeys.hash(key))
                                .addString(tenant)
                                .addString(project)
                                .addString(environment)
                                .addArrayOfString(scopes.toArray(new String[0]))
                                .addString(name)
                                .addInteger(rate))
                .map(
                        r ->
                                new JsonObject()
                                        .put("id", id.toString())
                                        .put("key", key)
                                        .put("tenant_id", tenant)
                                        .put("project_id", project)
                                        .put("environment", environment)
                                        .put("scopes", new JsonArray(scopes)));
    }

    public Future<JsonObject> list(String tenant) {
        return pool.preparedQuery(
                        "select id, key_prefix, tenant_id, project_id, environment, scopes, name, rate_limit_per_s, created_at, revoked_at"
                                + " from api_keys where tenant_id = $1 order by created_at")
                .execute(Tuple.of(tenant))
                .map(
                        rows -> {
                            JsonArray keys = new JsonArray();
                            for (Row r : rows) {
                                keys.add(
                                        new JsonObject()
                                                .put("id", r.getUUID("id").toString())
                                                .put("key_prefix", r.getString("key_prefix"))
                                                .put("tenant_id", r.getString("tenant_id"))
                                                .put("project_id", r.getString("project_id"))
                                                .put("environment", r.getString("environment"))
                                                .put(
                                                        "scopes",
                                                        new JsonArray(
                                                                List.of(
                                                                        r.getArrayOfStrings(
                                                                                "scopes"))))
                                                .put("name", r.getString("name"))
                                                .put(
                                                        "rate_limit_per_s",
                                                        r.getInteger("rate_limit_per_s"))
                                                .put(
                                                        "created_at",
                                                        String.valueOf(
                                                                r.getOffsetDateTime("created_at")))
                                                .put(
                                                        "revoked",
                                                        r.getOffsetDateTime("revoked_at") != null));
                            }
                            return new JsonObject().put("keys", keys);
                        });
    }

    /**
     * Revokes a key of the caller's tenant (of any tenant for an operator); another tenant's key is
     * not found.
     */
    public Future<Void> revoke(Principal caller, UUID id) {
        return pool.preparedQuery(
                        "update api_keys set revoked_at = now() where id = $1 and revoked_at is null"
                                + " and ($2::text is null or tenant_id = $2)")
                .execute(Tuple.of(id, caller.isOperator() ? null : caller.tenantId()))
                .compose(
                        r ->
                                r.rowCount() == 0
                                        ? Future.failedFuture(
                                                Problem.notFound("no active key " + id))
                                        : afterRevoke.get());
    }
}
