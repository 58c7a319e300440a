package io.engram.serving.api;

import static io.engram.serving.api.Exchange.json;
import static io.engram.serving.api.Exchange.noContent;
import static io.engram.serving.api.Exchange.optionalParam;
import static io.engram.serving.api.Exchange.principal;

import io.engram.serving.admin.MaintenanceAdmin;
import io.engram.serving.auth.ApiKeyAdmin;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Routes;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/** Administration of a tenant: API keys, maintenance runs, retention rules. */
public final class AdminHandlers {

    private static final Set<String> RULE_FIELDS =
            Set.of("project_id", "category", "keep_days", "grace_days");

    private final ApiKeyAdmin keys;
    private final MaintenanceAdmin maintenance;

    public AdminHandlers(ApiKeyAdmin keys, MaintenanceAdmin maintenance) {
        this.keys = keys;
        this.maintenance = maintenance;
    }

    public void register(Routes routes) {
        routes.add(HttpMethod.POST, "/v1/admin/keys", this::createKey);
        routes.add(HttpMethod.GET, "/v1/admin/keys", this::listKeys);
        routes.add(HttpMethod.DELETE, "/v1/admin/keys/:id", this::revokeKey);
        routes.add(HttpMethod.POST, "/v1/admin/maintenance/:job", this::requestRun);
        routes.add(HttpMethod.GET, "/v1/admin/maintenance/runs/:id", this::getRun);
        routes.add(HttpMethod.GET, "/v1/admin/retention-rules", this::listRules);
        routes.add(HttpMethod.PUT, "/v1/admin/retention-rules", this::putRule);
        routes.add(HttpMethod.DELETE, "/v1/admin/retention-rules/:id", this::deleteRule);
    }

    private void requestRun(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        maintenance
                .requestRun(p, ctx.pathParam("job"))
                .onSuccess(r -> json(ctx, 202, r))
                .onFailure(ctx::fail);
    }

    private void getRun(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        maintenance
                .run(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void listRules(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        maintenance.listRules(p).onSuccess(r -> json(ctx, 200, r)).onFailure(ctx::fail);
    }

    private void putRule(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        maintenance
                .putRule(p, Fields.body(ctx, RULE_FIELDS))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void deleteRule(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        maintenance
                .deleteRule(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> noContent(ctx))
                .onFailure(ctx::fail);
    }

    private void createKey(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        keys.create(p, Fields.body(ctx, ApiKeyAdmin.CREATE))
                .onSuccess(r -> json(ctx, 201, r))
                .onFailure(ctx::fail);
    }

    private void listKeys(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        String tenant = p.manageableTenant("tenant_id", optionalParam(ctx, "tenant_id"));
        keys.list(tenant).onSuccess(r -> json(ctx, 200, r)).onFailure(ctx::fail);
    }

    private void revokeKey(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        keys.revoke(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> noContent(ctx))
                .onFailure(ctx::fail);
    }
}
