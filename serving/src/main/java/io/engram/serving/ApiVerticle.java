package io.engram.serving;

import io.engram.serving.health.Readiness;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP API: routes are declared here, handlers delegate to plain classes. */
public final class ApiVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(ApiVerticle.class);
    static final String REQUEST_ID = "request_id";

    private final String host;
    private final int port;
    private final Readiness readiness;
    private HttpServer server;

    public ApiVerticle(String host, int port, Readiness readiness) {
        this.host = host;
        this.port = port;
        this.readiness = readiness;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.route().handler(this::assignRequestId);
        router.get("/health/live").handler(this::handleLive);
        router.get("/health/ready").handler(this::handleReady);
        router.route()
                .last()
                .handler(
                        ctx ->
                                ctx.fail(
                                        new Problem(
                                                404,
                                                "Not Found",
                                                "no route "
                                                        + ctx.request().method()
                                                        + " "
                                                        + ctx.request().path())));
        router.route().failureHandler(this::handleFailure);
        return vertx.createHttpServer()
                .requestHandler(router)
                .listen(port, host)
                .onSuccess(s -> server = s);
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int actualPort() {
        return server.actualPort();
    }

    private void assignRequestId(RoutingContext ctx) {
        String id = UUID.randomUUID().toString();
        ctx.put(REQUEST_ID, id);
        ctx.response().putHeader("X-Request-Id", id);
        ctx.next();
    }

    private void handleLive(RoutingContext ctx) {
        json(ctx, 200, new JsonObject().put("status", "up"));
    }

    private void handleReady(RoutingContext ctx) {
        readiness
                .report()
                .onSuccess(
                        report ->
                                json(
                                        ctx,
                                        "up".equals(report.getString("status")) ? 200 : 503,
                                        report))
                .onFailure(ctx::fail);
    }

    private void handleFailure(RoutingContext ctx) {
        String requestId = ctx.get(REQUEST_ID);
        Problem problem;
        if (ctx.failure() instanceof Problem p) {
            problem = p;
        } else if (ctx.failure() == null) {
            int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
            problem =
                    new Problem(
                            status,
                            status >= 500 ? "Internal Server Error" : "Request failed",
                            "request failed with status " + status);
        } else {
            LOG.error("request {} failed", requestId, ctx.failure());
            problem =
                    new Problem(
                            500,
                            "Internal Server Error",
                            "unexpected error; request id " + requestId);
        }
        ctx.response()
                .setStatusCode(problem.status())
                .putHeader("Content-Type", "application/problem+json")
                .end(problem.toJson(requestId).encode());
    }

    private static void json(RoutingContext ctx, int status, JsonObject body) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }
}
