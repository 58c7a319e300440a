package io.engram.serving.api;

import static io.engram.serving.api.Exchange.enumParam;
import static io.engram.serving.api.Exchange.intParam;
import static io.engram.serving.api.Exchange.json;
import static io.engram.serving.api.Exchange.noContent;
import static io.engram.serving.api.Exchange.optionalParam;
import static io.engram.serving.api.Exchange.principal;
import static io.engram.serving.api.Exchange.queryScope;
import static io.engram.serving.api.Exchange.requestId;
import static io.engram.serving.api.Exchange.withETag;

import io.engram.events.ForgetUserEvent;
import io.engram.memory.Scope;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Routes;
import io.engram.serving.memories.ExplicitStore;
import io.engram.serving.memories.Forgetting;
import io.engram.serving.memories.Memories;
import io.engram.serving.memories.MemoryEdits;
import io.engram.serving.memories.MemoryReads;
import io.engram.serving.recall.RecallService;
import io.engram.serving.turns.TurnIngest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The memory API: store, list, read, edit, delete, restore, and forget a user. */
public final class MemoryHandlers {

    private static final Set<String> TYPES = Set.of("semantic", "episodic", "procedural", "social");
    private static final Set<String> STATUSES =
            Set.of("active", "superseded", "archived", "expired");
    private static final Set<String> TIERS = Set.of("hot", "warm", "cold");

    private final Memories memories;
    private final RecallService recall;
    private final TurnIngest turns;

    public MemoryHandlers(Memories memories, RecallService recall, TurnIngest turns) {
        this.memories = memories;
        this.recall = recall;
        this.turns = turns;
    }

    public void register(Routes routes) {
        routes.add(HttpMethod.POST, "/v1/memories", this::store);
        routes.add(HttpMethod.GET, "/v1/memories", this::list);
        routes.add(HttpMethod.DELETE, "/v1/memories", this::forget);
        routes.add(HttpMethod.GET, "/v1/memories/:id/history", this::history);
        routes.add(HttpMethod.GET, "/v1/memories/:id", this::get);
        routes.add(HttpMethod.PATCH, "/v1/memories/:id", this::update);
        routes.add(HttpMethod.DELETE, "/v1/memories/:id", this::delete);
        routes.add(HttpMethod.POST, "/v1/memories/:id/restore", this::restore);
    }

    private void store(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        var request =
                ExplicitStore.StoreRequest.parse(
                        Fields.body(ctx, ExplicitStore.StoreRequest.FIELDS), p);
        memories.store()
                .store(request)
                .onSuccess(r -> json(ctx, 201, r.put("request_id", requestId(ctx))))
                .onFailure(ctx::fail);
    }

    private void list(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        memories.reads()
                .list(listQuery(ctx, p))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    /** The list's query parameters, each checked. */
    private static MemoryReads.ListQuery listQuery(RoutingContext ctx, Principal p) {
        Scope scope = queryScope(ctx, p);
        String tag = ctx.queryParams().get("tag");
        if (tag != null) {
            Fields.checkText("tag", tag, 100);
        }
        return new MemoryReads.ListQuery(
                scope,
                enumParam(ctx, "type", TYPES),
                enumParam(ctx, "status", STATUSES),
                enumParam(ctx, "tier", TIERS),
                tag,
                intParam(ctx, "limit", 50, 1, 200),
                ctx.queryParams().get("cursor"));
    }

    private void get(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        memories.reads()
                .get(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> withETag(ctx, r))
                .onFailure(ctx::fail);
    }

    private void history(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        memories.reads()
                .history(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void update(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        Scope scope = queryScope(ctx, p);
        UUID id = Fields.uuid("id", ctx.pathParam("id"));
        MemoryEdits.Edit edit = MemoryEdits.Edit.parse(Fields.body(ctx, MemoryEdits.Edit.FIELDS));
        Integer ifMatch = Fields.ifMatch(ctx.request().getHeader("If-Match"));
        memories.edits()
                .update(scope, id, edit, ifMatch)
                .onSuccess(r -> withETag(ctx, r))
                .onFailure(ctx::fail);
    }

    private void delete(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        memories.edits()
                .delete(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> noContent(ctx))
                .onFailure(ctx::fail);
    }

    private void restore(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        Scope scope = queryScope(ctx, p);
        UUID id = Fields.uuid("id", ctx.pathParam("id"));
        memories.edits()
                .restore(scope, id)
                .onSuccess(r -> json(ctx, 200, r.put("request_id", requestId(ctx))))
                .onFailure(ctx::fail);
    }

    /**
     * Forgets a user in one project, or (an admin key without {@code project_id}) in every project
     * of the tenant: queued bookkeeping first, so nothing is written after the forget; then the
     * stores; then the write plane is told.
     */
    private void forget(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        String user = Exchange.requiredUser(ctx);
        String project = optionalParam(ctx, "project_id");
        if (project != null) {
            p.scopeFor(user, project);
        } else if (!p.scopes().contains("admin")) {
            project = p.projectId();
        }
        Forgetting.Request request =
                new Forgetting.Request(p.tenantId(), p.environment(), user, project, p.keyId());
        recall.flushBookkeeping()
                .compose(v -> memories.forgetting().forget(request))
                .compose(r -> notifyWritePlane(request, r))
                .onSuccess(r -> json(ctx, 200, r.put("request_id", requestId(ctx))))
                .onFailure(ctx::fail);
    }

    /**
     * Tells the extraction job to drop what it holds for the forgotten user, in the project of the
     * forget or, without one, in every project (open sessions included where the user has no memory
     * yet). The stores are already clean; a broker failure is reported, not fatal.
     */
    private Future<JsonObject> notifyWritePlane(Forgetting.Request forget, JsonObject result) {
        ForgetUserEvent notice =
                new ForgetUserEvent(
                        UUID.randomUUID().toString(),
                        forget.tenant(),
                        forget.project() == null ? ForgetUserEvent.ALL_PROJECTS : forget.project(),
                        forget.environment(),
                        forget.user(),
                        Instant.now());
        return turns.send(List.of(notice))
                .map(n -> result.put("write_plane_notified", true))
                .otherwise(err -> result.put("write_plane_notified", false));
    }
}
