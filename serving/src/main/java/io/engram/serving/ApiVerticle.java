package io.engram.serving;

import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.ranking.ContextPacker;
import io.engram.ranking.RankingSettings;
import io.engram.serving.admin.MaintenanceAdmin;
import io.engram.serving.auth.ApiKeyAdmin;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.auth.Principal;
import io.engram.serving.auth.RateLimiter;
import io.engram.serving.health.Readiness;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.engram.serving.http.Routes;
import io.engram.serving.memories.ExplicitStore;
import io.engram.serving.memories.Forgetting;
import io.engram.serving.memories.Memories;
import io.engram.serving.memories.MemoryEdits;
import io.engram.serving.memories.MemoryReads;
import io.engram.serving.recall.RecallService;
import io.engram.serving.recall.SearchRequest;
import io.engram.serving.turns.TurnIngest;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP API: every route is declared here; handlers parse, check and delegate. */
public final class ApiVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(ApiVerticle.class);
    static final String REQUEST_ID = "request_id";
    static final String PRINCIPAL = "principal";
    static final long MAX_BODY_BYTES = 256 * 1024;

    /** What the routes delegate to. */
    public record Services(
            Readiness readiness,
            ApiKeyAuthenticator authenticator,
            RateLimiter rateLimiter,
            RecallService recall,
            Memories memories,
            TurnIngest turns,
            ApiKeyAdmin keys,
            MaintenanceAdmin maintenance,
            RankingSettings ranking,
            Handler<RoutingContext> metrics,
            String openApi) {}

    private final String host;
    private final int port;
    private final Services s;
    private HttpServer server;

    public ApiVerticle(String host, int port, Services services) {
        this.host = host;
        this.port = port;
        this.s = services;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.route().handler(this::assignRequestId);
        router.get("/health/live").handler(this::handleLive);
        router.get("/health/ready").handler(this::handleReady);
        router.get("/metrics").handler(s.metrics());
        router.get("/openapi.yaml")
                .handler(
                        ctx ->
                                ctx.response()
                                        .putHeader("Content-Type", "application/yaml")
                                        .end(s.openApi()));

        router.route("/v1/*").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        router.route("/v1/*").handler(this::authenticate);
        Routes routes = new Routes(router);
        routes.add(HttpMethod.POST, "/v1/turns", this::handleTurns);
        routes.add(HttpMethod.POST, "/v1/memories/search", this::handleSearch);
        routes.add(HttpMethod.POST, "/v1/context", this::handleContext);
        routes.add(HttpMethod.POST, "/v1/memories", this::handleStore);
        routes.add(HttpMethod.GET, "/v1/memories", this::handleList);
        routes.add(HttpMethod.DELETE, "/v1/memories", this::handleForget);
        routes.add(HttpMethod.GET, "/v1/memories/:id/history", this::handleHistory);
        routes.add(HttpMethod.GET, "/v1/memories/:id", this::handleGet);
        routes.add(HttpMethod.PATCH, "/v1/memories/:id", this::handleUpdate);
        routes.add(HttpMethod.DELETE, "/v1/memories/:id", this::handleDelete);
        routes.add(HttpMethod.POST, "/v1/memories/:id/restore", this::handleRestore);
        routes.add(HttpMethod.POST, "/v1/admin/keys", this::handleCreateKey);
        routes.add(HttpMethod.GET, "/v1/admin/keys", this::handleListKeys);
        routes.add(HttpMethod.DELETE, "/v1/admin/keys/:id", this::handleRevokeKey);
        routes.add(HttpMethod.POST, "/v1/admin/maintenance/:job", this::handleRequestRun);
        routes.add(HttpMethod.GET, "/v1/admin/maintenance/runs/:id", this::handleGetRun);
        routes.add(HttpMethod.GET, "/v1/admin/retention-rules", this::handleListRules);
        routes.add(HttpMethod.PUT, "/v1/admin/retention-rules", this::handlePutRule);
        routes.add(HttpMethod.DELETE, "/v1/admin/retention-rules/:id", this::handleDeleteRule);
        router.route().last().handler(routes::unmatched);
        router.route().failureHandler(this::handleFailure);
        return vertx.createHttpServer()
                .requestHandler(router)
                .invalidRequestHandler(ApiVerticle::invalidRequest)
                .listen(port, host)
                .onSuccess(srv -> server = srv);
    }

    /**
     * A request the HTTP decoder refused (request line or headers too long, malformed): the status
     * it chose, with a problem document saying why.
     */
    private static void invalidRequest(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        int status = 400;
        String detail = "request could not be read";
        if (cause instanceof io.netty.handler.codec.http.TooLongHttpLineException) {
            status = 414;
            detail = "request line: longer than the server reads";
        } else if (cause instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
            status = 431;
            detail = "headers: larger than the server reads";
        }
        String title =
                status == 414
                        ? "URI Too Long"
                        : status == 431 ? "Request Header Fields Too Large" : "Bad Request";
        request.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/problem+json")
                .putHeader("Connection", "close")
                .end(new Problem(status, title, detail).toJson(null).encode())
                .onComplete(done -> request.connection().close());
    }

    /** Stops accepting, lets requests in flight finish (up to 10 s). */
    @Override
    public Future<?> stop() {
        return server == null
                ? Future.succeededFuture()
                : server.shutdown(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    public int actualPort() {
        return server.actualPort();
    }

    private void assignRequestId(RoutingContext ctx) {
        String id = UUID.randomUUID().toString();
        ctx.put(REQUEST_ID, id);
        ctx.response().putHeader("X-Request-Id", id);
        ctx.next();
    }

    private void authenticate(RoutingContext ctx) {
        s.authenticator()
                .authenticate(ctx.request().getHeader("Authorization"))
                // Inside the future: a 429 thrown by a handler of an already looked-up key would
                // never reach the failure handler, and the request would never be answered.
                .map(
                        p -> {
                            s.rateLimiter().acquire(p);
                            return p;
                        })
                .onSuccess(
                        p -> {
                            ctx.put(PRINCIPAL, p);
                            ctx.next();
                        })
                .onFailure(ctx::fail);
    }

    private static Principal principal(RoutingContext ctx, String scope) {
        Principal p = ctx.get(PRINCIPAL);
        p.require(scope);
        return p;
    }

    private static Scope queryScope(RoutingContext ctx, Principal p) {
        String user = ctx.queryParams().get("user_id");
        if (user == null) {
            throw Problem.badRequest("user_id: required query parameter");
        }
        return p.scopeFor(Fields.checkId("user_id", user), optionalParam(ctx, "project_id"));
    }

    private static String optionalParam(RoutingContext ctx, String name) {
        String v = ctx.queryParams().get(name);
        return v == null ? null : Fields.checkId(name, v);
    }

    private void handleLive(RoutingContext ctx) {
        json(ctx, 200, new JsonObject().put("status", "up"));
    }

    private void handleReady(RoutingContext ctx) {
        s.readiness()
                .report()
                .onSuccess(r -> json(ctx, "up".equals(r.getString("status")) ? 200 : 503, r))
                .onFailure(ctx::fail);
    }

    private void handleTurns(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        JsonObject body =
                Fields.body(
                        ctx, Set.of("user_id", "session_id", "project_id", "end_session", "turns"));
        Scope scope = p.scopeFor(Fields.id(body, "user_id"), Fields.optionalId(body, "project_id"));
        String session = Fields.id(body, "session_id");
        var events = TurnIngest.events(body, scope, session);
        s.turns()
                .send(events)
                .onSuccess(
                        n ->
                                json(
                                        ctx,
                                        202,
                                        new JsonObject()
                                                .put("accepted", n)
                                                .put("session_id", session)
                                                .put("request_id", ctx.get(REQUEST_ID))))
                .onFailure(ctx::fail);
    }

    private void handleSearch(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        SearchRequest request =
                SearchRequest.parse(Fields.body(ctx, searchFields()), p, s.ranking());
        s.recall()
                .search(request, ctx.get(REQUEST_ID))
                .onSuccess(
                        r -> {
                            ctx.response().putHeader("Server-Timing", r.serverTiming());
                            json(ctx, 200, r.body());
                        })
                .onFailure(ctx::fail);
    }

    private static Set<String> searchFields() {
        return SearchRequest.FIELDS;
    }

    private void handleContext(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        JsonObject body = Fields.body(ctx, contextFields());
        int budget = Fields.integer(body, "token_budget", 1000, 50, 16_000);
        JsonObject searchBody = body.copy();
        searchBody.remove("token_budget");
        if (!searchBody.containsKey("limit")) {
            searchBody.put("limit", 20);
        }
        SearchRequest request = SearchRequest.parse(searchBody, p, s.ranking());
        s.recall()
                .search(request, ctx.get(REQUEST_ID))
                .map(RecallService.Recall::body)
                .onSuccess(
                        r -> {
                            List<ContextPacker.Item> items = new ArrayList<>();
                            JsonArray memories = r.getJsonArray("memories");
                            for (int i = 0; i < memories.size(); i++) {
                                JsonObject m = memories.getJsonObject(i);
                                items.add(
                                        new ContextPacker.Item(
                                                m.getString("id"),
                                                m.getString("content"),
                                                Instant.parse(m.getString("valid_from"))));
                            }
                            ContextPacker.PromptBlock block = ContextPacker.pack(items, budget);
                            json(
                                    ctx,
                                    200,
                                    new JsonObject()
                                            .put(
                                                    "message",
                                                    block.text().isEmpty()
                                                            ? null
                                                            : new JsonObject()
                                                                    .put("role", "system")
                                                                    .put("content", block.text()))
                                            .put("memory_ids", new JsonArray(block.includedIds()))
                                            .put("tokens", block.tokens())
                                            .put("omitted", block.omitted())
                                            .put("skipped", r.getBoolean("skipped"))
                                            .put("degraded", r.getJsonArray("degraded"))
                                            .put("request_id", r.getString("request_id")));
                        })
                .onFailure(ctx::fail);
    }

    private static Set<String> contextFields() {
        Set<String> fields = new HashSet<>(SearchRequest.FIELDS);
        fields.add("token_budget");
        return fields;
    }

    private void handleStore(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        JsonObject body =
                Fields.body(
                        ctx,
                        Set.of(
                                "user_id",
                                "project_id",
                                "content",
                                "type",
                                "tags",
                                "metadata",
                                "importance",
                                "session_id",
                                "valid_from"));
        Scope scope = p.scopeFor(Fields.id(body, "user_id"), Fields.optionalId(body, "project_id"));
        String typeText = body.containsKey("type") ? Fields.text(body, "type", 20) : "semantic";
        MemoryType type;
        try {
            type = MemoryType.fromWire(typeText);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest("type: " + e.getMessage());
        }
        Instant validFrom = Fields.optionalTime(body, "valid_from");
        var request =
                new ExplicitStore.StoreRequest(
                        scope,
                        Fields.text(body, "content", 8000).strip(),
                        type,
                        Fields.strings(body, "tags", 20, 100),
                        Fields.json(body, "metadata", 50),
                        Fields.number(body, "importance", 0.5, 0, 1),
                        Fields.optionalId(body, "session_id"),
                        validFrom == null ? Instant.now() : validFrom);
        s.memories()
                .store()
                .store(request)
                .onSuccess(r -> json(ctx, 201, r.put("request_id", ctx.get(REQUEST_ID))))
                .onFailure(ctx::fail);
    }

    private void handleList(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        Scope scope = queryScope(ctx, p);
        String type =
                enumParam(ctx, "type", Set.of("semantic", "episodic", "procedural", "social"));
        String status =
                enumParam(ctx, "status", Set.of("active", "superseded", "archived", "expired"));
        String tier = enumParam(ctx, "tier", Set.of("hot", "warm", "cold"));
        String tag = ctx.queryParams().get("tag");
        if (tag != null) {
            Fields.checkText("tag", tag, 100);
        }
        int limit = intParam(ctx, "limit", 50, 1, 200);
        s.memories()
                .reads()
                .list(
                        new MemoryReads.ListQuery(
                                scope,
                                type,
                                status,
                                tier,
                                tag,
                                limit,
                                ctx.queryParams().get("cursor")))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void handleForget(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        String user = ctx.queryParams().get("user_id");
        if (user == null) {
            throw Problem.badRequest("user_id: required query parameter");
        }
        Fields.checkId("user_id", user);
        String project = optionalParam(ctx, "project_id");
        if (project != null) {
            p.scopeFor(user, project);
        } else if (!p.scopes().contains("admin")) {
            project = p.projectId();
        }
        String forgetProject = project;
        s.recall()
                .flushBookkeeping()
                .compose(
                        v ->
                                s.memories()
                                        .forgetting()
                                        .forget(
                                                new Forgetting.Request(
                                                        p.tenantId(),
                                                        p.environment(),
                                                        user,
                                                        forgetProject,
                                                        p.keyId())))
                .compose(r -> notifyWritePlane(p, user, r, forgetProject))
                .onSuccess(r -> json(ctx, 200, r.put("request_id", ctx.get(REQUEST_ID))))
                .onFailure(ctx::fail);
    }

    /**
     * Tells the extraction job to drop what it holds for the forgotten user, in the project of the
     * forget or, without one, in every project (open sessions included where the user has no memory
     * yet). The stores are already clean; a broker failure is reported, not fatal.
     */
    private Future<JsonObject> notifyWritePlane(
            Principal p, String user, JsonObject result, String project) {
        io.engram.events.ChatEvent notice =
                new io.engram.events.ForgetUserEvent(
                        UUID.randomUUID().toString(),
                        p.tenantId(),
                        project == null ? io.engram.events.ForgetUserEvent.ALL_PROJECTS : project,
                        p.environment(),
                        user,
                        Instant.now());
        return s.turns()
                .send(List.of(notice))
                .map(n -> result.put("write_plane_notified", true))
                .otherwise(err -> result.put("write_plane_notified", false));
    }

    private void handleGet(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        s.memories()
                .reads()
                .get(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> withETag(ctx, r))
                .onFailure(ctx::fail);
    }

    private void handleHistory(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        s.memories()
                .reads()
                .history(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void handleUpdate(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        Scope scope = queryScope(ctx, p);
        UUID id = Fields.uuid("id", ctx.pathParam("id"));
        JsonObject body = Fields.body(ctx, Set.of("content", "tags", "importance", "metadata"));
        if (body.isEmpty()) {
            throw Problem.badRequest(
                    "body: give at least one of content, tags, importance, metadata");
        }
        String content = Fields.optionalText(body, "content", 8000);
        List<String> tags = body.containsKey("tags") ? Fields.strings(body, "tags", 20, 100) : null;
        Double importance =
                body.containsKey("importance")
                        ? Fields.number(body, "importance", 0.5, 0, 1)
                        : null;
        Integer ifMatch = Fields.ifMatch(ctx.request().getHeader("If-Match"));
        s.memories()
                .edits()
                .update(
                        scope,
                        id,
                        new MemoryEdits.Edit(
                                content, tags, importance, Fields.json(body, "metadata", 50)),
                        ifMatch)
                .onSuccess(r -> withETag(ctx, r))
                .onFailure(ctx::fail);
    }

    private void handleDelete(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        s.memories()
                .edits()
                .delete(queryScope(ctx, p), Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> ctx.response().setStatusCode(204).end())
                .onFailure(ctx::fail);
    }

    private void handleRestore(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        Scope scope = queryScope(ctx, p);
        UUID id = Fields.uuid("id", ctx.pathParam("id"));
        s.memories()
                .edits()
                .restore(scope, id)
                .onSuccess(r -> json(ctx, 200, r.put("request_id", ctx.get(REQUEST_ID))))
                .onFailure(ctx::fail);
    }

    private void handleRequestRun(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        s.maintenance()
                .requestRun(p, ctx.pathParam("job"))
                .onSuccess(r -> json(ctx, 202, r))
                .onFailure(ctx::fail);
    }

    private void handleGetRun(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        s.maintenance()
                .run(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(r -> json(ctx, 200, r))
                .onFailure(ctx::fail);
    }

    private void handleListRules(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        s.maintenance().listRules(p).onSuccess(r -> json(ctx, 200, r)).onFailure(ctx::fail);
    }

    private void handlePutRule(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        JsonObject body =
                Fields.body(ctx, Set.of("project_id", "category", "keep_days", "grace_days"));
        s.maintenance().putRule(p, body).onSuccess(r -> json(ctx, 200, r)).onFailure(ctx::fail);
    }

    private void handleDeleteRule(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        s.maintenance()
                .deleteRule(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> ctx.response().setStatusCode(204).end())
                .onFailure(ctx::fail);
    }

    private void handleCreateKey(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        JsonObject body = Fields.body(ctx, ApiKeyAdmin.CREATE);
        s.keys().create(p, body).onSuccess(r -> json(ctx, 201, r)).onFailure(ctx::fail);
    }

    private void handleListKeys(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        String tenant = p.manageableTenant("tenant_id", optionalParam(ctx, "tenant_id"));
        s.keys().list(tenant).onSuccess(r -> json(ctx, 200, r)).onFailure(ctx::fail);
    }

    private void handleRevokeKey(RoutingContext ctx) {
        Principal p = principal(ctx, "admin");
        s.keys()
                .revoke(p, Fields.uuid("id", ctx.pathParam("id")))
                .onSuccess(v -> ctx.response().setStatusCode(204).end())
                .onFailure(ctx::fail);
    }

    private static String enumParam(RoutingContext ctx, String name, Set<String> allowed) {
        String v = ctx.queryParams().get(name);
        if (v != null && !allowed.contains(v)) {
            throw Problem.badRequest(
                    name + ": '" + v + "' is not one of " + String.join(", ", allowed));
        }
        return v;
    }

    private static int intParam(RoutingContext ctx, String name, int def, int min, int max) {
        String v = ctx.queryParams().get(name);
        if (v == null) {
            return def;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw Problem.badRequest(name + ": must be a whole number from " + min + " to " + max);
        }
    }

    private void handleFailure(RoutingContext ctx) {
        String requestId = ctx.get(REQUEST_ID);
        Problem problem;
        if (ctx.failure() instanceof Problem p) {
            problem = p;
        } else if (ctx.failure() == null || ctx.statusCode() == 413) {
            int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
            problem =
                    switch (status) {
                        case 413 ->
                                new Problem(
                                        413,
                                        "Content Too Large",
                                        "body: larger than " + MAX_BODY_BYTES / 1024 + " KB");
                        case 400 -> Problem.badRequest("request could not be read");
                        default ->
                                new Problem(
                                        status,
                                        status >= 500 ? "Internal Server Error" : "Request failed",
                                        "request failed with status " + status);
                    };
        } else if ((problem = Problem.ofUnreachableStore(ctx.failure(), requestId)) != null) {
            LOG.warn(
                    "request {} {} {}: store unavailable: {}",
                    requestId,
                    ctx.request().method(),
                    ctx.request().path(),
                    ctx.failure().toString());
        } else {
            LOG.error(
                    "request {} {} {} failed",
                    requestId,
                    ctx.request().method(),
                    ctx.request().path(),
                    ctx.failure());
            problem =
                    new Problem(
                            500,
                            "Internal Server Error",
                            "unexpected error; request id " + requestId);
        }
        if (ctx.response().ended()) {
            return;
        }
        if (problem.retryAfterSeconds() != null) {
            ctx.response().putHeader("Retry-After", String.valueOf(problem.retryAfterSeconds()));
        }
        if (problem.status() == 401) {
            // RFC 6750 3: the scheme to use, and whether a token was presented and refused.
            ctx.response()
                    .putHeader(
                            "WWW-Authenticate",
                            ctx.request().getHeader("Authorization") == null
                                    ? "Bearer realm=\"engram\""
                                    : "Bearer realm=\"engram\", error=\"invalid_token\"");
        }
        if (problem instanceof Problem.MethodNotAllowed m) {
            ctx.response().putHeader("Allow", m.allow());
        }
        ctx.response()
                .setStatusCode(problem.status())
                .putHeader("Content-Type", "application/problem+json")
                .end(problem.toJson(requestId).encode());
    }

    /** A memory, with its version as the ETag an edit's If-Match may send back. */
    private static void withETag(RoutingContext ctx, JsonObject memory) {
        ctx.response().putHeader("ETag", "\"" + memory.getInteger("version") + "\"");
        json(ctx, 200, memory);
    }

    private static void json(RoutingContext ctx, int status, JsonObject body) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }
}
