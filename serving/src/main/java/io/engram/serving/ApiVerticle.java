package io.engram.serving;

import io.engram.ranking.RankingSettings;
import io.engram.serving.admin.MaintenanceAdmin;
import io.engram.serving.api.AdminHandlers;
import io.engram.serving.api.Exchange;
import io.engram.serving.api.FailureResponses;
import io.engram.serving.api.MemoryHandlers;
import io.engram.serving.api.RecallHandlers;
import io.engram.serving.auth.ApiKeyAdmin;
import io.engram.serving.auth.ApiKeyAuthenticator;
import io.engram.serving.auth.RateLimiter;
import io.engram.serving.health.Readiness;
import io.engram.serving.health.WritePlaneHealth;
import io.engram.serving.http.ResponseDeadline;
import io.engram.serving.http.Routes;
import io.engram.serving.mcp.McpEndpoint;
import io.engram.serving.memories.Memories;
import io.engram.serving.recall.RecallService;
import io.engram.serving.turns.TurnIngest;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP API: request ids, health, metrics, the contract, then authentication and the routes of
 * {@link RecallHandlers}, {@link MemoryHandlers} and {@link AdminHandlers}; every failure answered
 * by {@link FailureResponses}.
 */
public final class ApiVerticle extends VerticleBase {

    static final long MAX_BODY_BYTES = 256 * 1024;

    /**
     * A request of the API still unanswered after this is answered 503: far above any stage's own
     * deadline (a recall's is under a second), a bound for an answer that was lost.
     */
    static final long RESPONSE_DEADLINE_MS = 15_000;

    /** What the routes delegate to. */
    public record Services(
            Readiness readiness,
            WritePlaneHealth writePlane,
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
    private McpEndpoint mcp;

    public ApiVerticle(String host, int port, Services services) {
        this.host = host;
        this.port = port;
        this.s = services;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.route().handler(ApiVerticle::assignRequestId);
        router.get("/health/live").handler(this::live);
        router.get("/health/ready").handler(this::ready);
        router.get("/health/write-plane").handler(this::writePlane);
        router.get("/metrics").handler(s.metrics());
        router.get("/openapi.yaml")
                .handler(
                        ctx ->
                                ctx.response()
                                        .putHeader("Content-Type", "application/yaml")
                                        .end(s.openApi()));

        ResponseDeadline deadline = new ResponseDeadline(RESPONSE_DEADLINE_MS, Exchange.REQUEST_ID);
        router.route("/v1/*").handler(deadline);
        router.route("/mcp").handler(deadline);
        router.route("/v1/*").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        router.route("/v1/*").handler(this::authenticate);
        // MCP tools on the same keys and scopes: each calls the API above with the caller's key.
        mcp = new McpEndpoint("1.0", this::actualPort);
        router.route("/mcp").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        router.route("/mcp").handler(this::authenticate);
        router.post("/mcp").handler(mcp::handle);
        router.route("/mcp")
                .handler(ctx -> ctx.response().setStatusCode(405).putHeader("Allow", "POST").end());
        Routes routes = new Routes(router);
        new RecallHandlers(s.recall(), s.turns(), s.ranking()).register(routes);
        new MemoryHandlers(s.memories(), s.recall(), s.turns()).register(routes);
        new AdminHandlers(s.keys(), s.maintenance()).register(routes);
        router.route().last().handler(routes::unmatched);
        router.route().failureHandler(new FailureResponses(MAX_BODY_BYTES)::handle);
        // HTTP/1.1 only: an h2c upgrade would take requests past the decoder's limits and
        // invalidRequest (an oversized header is then a bare 431 or a GOAWAY, not a problem
        // document). TLS and HTTP/2 end at the load balancer.
        return vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
                .requestHandler(router)
                .invalidRequestHandler(FailureResponses::invalidRequest)
                .listen(port, host)
                .onSuccess(srv -> server = srv);
    }

    /** Stops accepting, lets requests in flight finish (up to 10 s). */
    @Override
    public Future<?> stop() {
        if (mcp != null) {
            mcp.close();
        }
        return server == null ? Future.succeededFuture() : server.shutdown(10, TimeUnit.SECONDS);
    }

    public int actualPort() {
        return server.actualPort();
    }

    private static void assignRequestId(RoutingContext ctx) {
        String id = UUID.randomUUID().toString();
        ctx.put(Exchange.REQUEST_ID, id);
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
                            ctx.put(Exchange.PRINCIPAL, p);
                            ctx.next();
                        })
                .onFailure(ctx::fail);
    }

    private void live(RoutingContext ctx) {
        Exchange.json(ctx, 200, new JsonObject().put("status", "up"));
    }

    private void ready(RoutingContext ctx) {
        s.readiness()
                .report()
                .onSuccess(
                        r ->
                                Exchange.json(
                                        ctx,
                                        "up".equals(r.getString("status")) ? 200 : 503,
                                        // Reported, not required: recall answers while the write
                                        // plane is behind.
                                        r.put("write_plane", s.writePlane().report())))
                .onFailure(ctx::fail);
    }

    /** 503 while the write plane has stopped turning waiting turns into memories. */
    private void writePlane(RoutingContext ctx) {
        Exchange.json(ctx, s.writePlane().stalled() ? 503 : 200, s.writePlane().report());
    }
}
