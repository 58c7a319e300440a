package io.engram.serving.admin;

import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Admin endpoints for the maintenance jobs and retention rules of the key's tenant. A run is
 * requested here and executed by whatever runs the jobs (the local stack's scheduler, or {@code
 * engram-maintenance requested} next to a Flink cluster); its report is read back by id.
 */
public final class MaintenanceAdmin {

    /** Jobs an admin key may run for its own tenant. */
    static final List<String> TENANT_JOBS = List.of("decay", "consolidate", "retention", "quota");

    static final Set<String> CATEGORIES = Set.of("semantic", "episodic", "procedural", "social");

    private final Pool pool;

    public MaintenanceAdmin(Pool pool) {
        this.pool = pool;
    }

    public Future<JsonObject> requestRun(Principal p, String job) {
        if (job.equals("reindex")) {
            throw Problem.badRequest(
                    "job: reindex rebuilds the index of every tenant; an operator runs it with"
                            + " engram-maintenance reindex");
        }
        if (!TENANT_JOBS.contains(job)) {
            throw Problem.notFound(
                    "job: '" + job + "' is not one of " + String.join(", ", TENANT_JOBS));
        }
        UUID id = UUID.randomUUID();
        return pool.preparedQuery(
                        "insert into maintenance_runs (id, job, tenant_id, as_of, requested_by, status)"
                                + " values ($1, $2, $3, now(), $4, 'requested') returning requested_at")
                .execute(Tuple.of(id, job, p.tenantId(), "api:" + p.keyId()))
                .map(
                        rows ->
                                new JsonObject()
                                        .put("run_id", id.toString())
                                        .put("job", job)
                                        .put("tenant_id", p.tenantId())
                                        .put("status", "requested")
                                        .put(
                                                "requested_at",
                                                rows.iterator()
                                                        .next()
                                                        .getOffsetDateTime(0)
                                                        .toInstant()
                                                        .toString()));
    }

    public Future<JsonObject> run(Principal p, UUID id) {
        return pool.preparedQuery(
                        "select id, job, status, requested_at, started_at, finished_at, report, error"
                                + " from maintenance_runs where id = $1 and tenant_id = $2")
                .execute(Tuple.of(id, p.tenantId()))
                .compose(
                        rows -> {
                            if (rows.size() == 0) {
                                return Future.failedFuture(
                                        Problem.notFound("no maintenance run " + id));
                            }
                            Row r = rows.iterator().next();
                            Object report = r.getValue("report");
                            return Future.succeededFuture(
                                    new JsonObject()
                                            .put("run_id", id.toString())
                                            .put("job", r.getString("job"))
                                            .put("status", r.getString("status"))
                                            .put("requested_at", time(r, "requested_at"))
                                            .put("started_at", time(r, "started_at"))
                                            .put("finished_at", time(r, "finished_at"))
                                            .put("report", report)
                                            .put("error", r.getString("error")));
                        });
    }

    public Future<JsonObject> listRules(Principal p) {
        return pool.preparedQuery(
                        "select id, project_id, category, keep_days, grace_days, updated_at from retention_rules"
                                + " where tenant_id = $1 order by project_id nulls first, category nulls first")
                .execute(Tuple.of(p.tenantId()))
                .map(
                        rows -> {
                            JsonArray rules = new JsonArray();
                            rows.forEach(r -> rules.add(rule(r)));
                            return new JsonObject().put("rules", rules);
                        });
    }

    /**
     * Sets the rule of one level: {@code project_id} and {@code category} both optional (absent:
     * the tenant's or the project's default), {@code keep_days} required (null: keep forever).
     */
    public Future<JsonObject> putRule(Principal p, JsonObject body) {
        String project = Fields.optionalId(body, "project_id");
        String category = null;
        if (body.containsKey("category")) {
            category = Fields.text(body, "category", 20);
            if (!CATEGORIES.contains(category)) {
                throw Problem.badRequest(
                        "category: '"
                                + category
                                + "' is not one of semantic, episodic, procedural, social");
            }
        }
        if (!body.containsKey("keep_days")) {
            throw Problem.badRequest("keep_days: required (a number of days, or null: forever)");
        }
        Integer keep =
                body.getValue("keep_days") == null
                        ? null
                        : Fields.integer(body, "keep_days", 0, 1, 36_500);
        int grace = Fields.integer(body, "grace_days", 7, 0, 3650);
        return pool.preparedQuery(
                        "insert into retention_rules (id, tenant_id, project_id, category, keep_days, grace_days)"
                                + " values ($1, $2, $3, $4, $5, $6)"
                                + " on conflict (tenant_id, coalesce(project_id, ''), coalesce(category, ''))"
                                + " do update set keep_days = excluded.keep_days, grace_days = excluded.grace_days,"
                                + " updated_at = now()"
                                + " returning id, project_id, category, keep_days, grace_days, updated_at")
                .execute(
                        Tuple.tuple()
                                .addUUID(UUID.randomUUID())
                                .addString(p.tenantId())
                                .addString(project)
                                .addString(category)
                                .addInteger(keep)
                                .addInteger(grace))
                .map(rows -> rule(rows.iterator().next()));
    }

    public Future<Void> deleteRule(Principal p, UUID id) {
        return pool.preparedQuery("delete from retention_rules where id = $1 and tenant_id = $2")
                .execute(Tuple.of(id, p.tenantId()))
                .compose(
                        rows ->
                                rows.rowCount() == 0
                                        ? Future.failedFuture(
                                                Problem.notFound("no retention rule " + id))
                                        : Future.succeededFuture());
    }

    private static JsonObject rule(Row r) {
        return new JsonObject()
                .put("id", r.getUUID("id").toString())
                .put("project_id", r.getString("project_id"))
                .put("category", r.getString("category"))
                .put("keep_days", r.getInteger("keep_days"))
                .put("grace_days", r.getInteger("grace_days"))
                .put("updated_at", time(r, "updated_at"));
    }

    private static String time(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant().toString();
    }
}
