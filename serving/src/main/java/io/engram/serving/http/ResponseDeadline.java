package io.engram.serving.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last bound on a request: one still unanswered after {@code millis} is answered 503 (retry
 * soon) and logged with its request id, so no client waits on a call whose answer was lost. Every
 * stage of a recall has its own, shorter deadline; this catches what has none.
 */
public final class ResponseDeadline implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseDeadline.class);

    private final long millis;
    private final String requestIdKey;

    /** {@code requestIdKey}: where the request's id is kept in the routing context. */
    public ResponseDeadline(long millis, String requestIdKey) {
        this.millis = millis;
        this.requestIdKey = requestIdKey;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long timer =
                ctx.vertx()
                        .setTimer(
                                millis,
                                t -> {
                                    if (ctx.response().ended() || ctx.response().headWritten()) {
                                        return;
                                    }
                                    LOG.warn(
                                            "request {} ({} {}) not answered within {} ms:"
                                                    + " answered 503",
                                            (Object) ctx.get(requestIdKey),
                                            ctx.request().method(),
                                            ctx.request().path(),
                                            millis);
                                    ctx.fail(
                                            Problem.unavailable(
                                                    "no answer within " + millis + " ms"));
                                });
        ctx.addEndHandler(v -> ctx.vertx().cancelTimer(timer));
        ctx.next();
    }
}
