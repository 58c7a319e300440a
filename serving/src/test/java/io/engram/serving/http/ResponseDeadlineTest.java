package io.engram.serving.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.serving.api.FailureResponses;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A request whose answer never comes is answered 503 at the deadline; others are untouched. */
class ResponseDeadlineTest {

    private static final long DEADLINE_MS = 300;
    private static Vertx vertx;
    private static HttpServer server;
    private static final AtomicInteger lateFailures = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.route()
                .handler(
                        ctx -> {
                            ctx.put("request-id", "r-42");
                            ctx.next();
                        });
        router.route("/v1/*").handler(new ResponseDeadline(DEADLINE_MS, "request-id"));
        // A handler whose answer is lost: it never ends the response.
        router.get("/v1/lost").handler(ctx -> {});
        router.get("/v1/quick").handler(ctx -> ctx.response().end("ok"));
        router.get("/v1/slow-but-in-time")
                .handler(
                        ctx ->
                                vertx.setTimer(
                                        DEADLINE_MS / 3,
                                        t -> ctx.response().end("ok, a little later")));
        router.route()
                .failureHandler(
                        ctx -> {
                            if (ctx.response().ended()) {
                                lateFailures.incrementAndGet();
                            }
                            new FailureResponses(1024).handle(ctx);
                        });
        server =
                vertx.createHttpServer()
                        .requestHandler(router)
                        .listen(0, "127.0.0.1")
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private record Answer(int status, String retryAfter, String type, String body, long ms) {}

    private static Answer get(String path) throws Exception {
        long start = System.nanoTime();
        return vertx.createHttpClient()
                .request(HttpMethod.GET, server.actualPort(), "127.0.0.1", path)
                .compose(r -> r.send())
                .compose(
                        (HttpClientResponse r) ->
                                r.body()
                                        .map(
                                                b ->
                                                        new Answer(
                                                                r.statusCode(),
                                                                r.getHeader("Retry-After"),
                                                                r.getHeader("Content-Type"),
                                                                b.toString(),
                                                                (System.nanoTime() - start)
                                                                        / 1_000_000)))
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void aLostAnswerIsA503ProblemToRetryNamingTheDeadline() throws Exception {
        Answer a = get("/v1/lost");

        assertThat(a.status()).isEqualTo(503);
        assertThat(a.retryAfter()).isEqualTo("1");
        assertThat(a.type()).isEqualTo("application/problem+json");
        JsonObject problem = new JsonObject(a.body());
        assertThat(problem.getString("detail")).contains("no answer within 300 ms");
        assertThat(a.ms()).isGreaterThanOrEqualTo(DEADLINE_MS);
    }

    @Test
    void answersInTimeAreNotTouchedAfterwards() throws Exception {
        assertThat(get("/v1/quick").body()).isEqualTo("ok");
        assertThat(get("/v1/slow-but-in-time").body()).isEqualTo("ok, a little later");

        // A request sent after them is answered at its own deadline, which ends after theirs:
        // by then a deadline of theirs would have failed them, had it still been running.
        assertThat(get("/v1/lost").status()).isEqualTo(503);
        assertThat(lateFailures).hasValue(0);
    }
}
