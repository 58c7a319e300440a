package io.engram.serving.api;

import io.engram.serving.http.Problem;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every failure as a problem document: a {@link Problem} a handler threw as it is, an unreachable
 * store as 503 with {@code Retry-After}, anything else as 500 naming only the request id.
 */
public final class FailureResponses {

    private static final Logger LOG = LoggerFactory.getLogger(FailureResponses.class);

    private final long maxBodyBytes;

    public FailureResponses(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    public void handle(RoutingContext ctx) {
        String requestId = ctx.get(Exchange.REQUEST_ID);
        Problem problem = problem(ctx, requestId);
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

    private Problem problem(RoutingContext ctx, String requestId) {
        if (ctx.failure() instanceof Problem p) {
            return p;
        }
        if (ctx.failure() == null || ctx.statusCode() == 413) {
            int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
            return switch (status) {
                case 413 ->
                        new Problem(
                                413,
                                "Content Too Large",
                                "body: larger than " + maxBodyBytes / 1024 + " KB");
                case 400 -> Problem.badRequest("request could not be read");
                default ->
                        new Problem(
                                status,
                                status >= 500 ? "Internal Server Error" : "Request failed",
                                "request failed with status " + status);
            };
        }
        Problem unreachable = Problem.ofUnreachableStore(ctx.failure(), requestId);
        if (unreachable != null) {
            LOG.warn(
                    "request {} {} {}: store unavailable: {}",
                    requestId,
                    ctx.request().method(),
                    ctx.request().path(),
                    ctx.failure().toString());
            return unreachable;
        }
        LOG.error(
                "request {} {} {} failed",
                requestId,
                ctx.request().method(),
                ctx.request().path(),
                ctx.failure());
        return new Problem(
                500, "Internal Server Error", "unexpected error; request id " + requestId);
    }

    /**
     * A request the HTTP decoder refused (request line or headers too long, malformed): the status
     * it chose, with a problem document saying why.
     */
    public static void invalidRequest(HttpServerRequest request) {
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
}
