package io.engram.serving.health;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every dependency probe in parallel, each with its own deadline, and reports each
 * dependency's state. Never fails: a probe that errors or times out is reported as down.
 */
public final class Readiness {

    private final Vertx vertx;
    private final List<DependencyCheck> checks;
    private final long timeoutMs;

    public Readiness(Vertx vertx, List<DependencyCheck> checks, long timeoutMs) {
        this.vertx = vertx;
        this.checks = List.copyOf(checks);
        this.timeoutMs = timeoutMs;
    }

    /**
     * The report: {@code {"status": "up"|"down", "checks": {name: {status, latency_ms, error?}}}}.
     */
    public Future<JsonObject> report() {
        List<Future<JsonObject>> results = new ArrayList<>();
        for (DependencyCheck check : checks) {
            results.add(run(check));
        }
        return Future.join(results)
                .transform(
                        ignored -> {
                            JsonObject byName = new JsonObject();
                            boolean allUp = true;
                            for (int i = 0; i < checks.size(); i++) {
                                JsonObject result = results.get(i).result();
                                byName.put(checks.get(i).name(), result);
                                allUp &= "up".equals(result.getString("status"));
                            }
                            return Future.succeededFuture(
                                    new JsonObject()
                                            .put("status", allUp ? "up" : "down")
                                            .put("checks", byName));
                        });
    }

    private Future<JsonObject> run(DependencyCheck check) {
        long start = System.nanoTime();
        Promise<JsonObject> promise = Promise.promise();
        long timer =
                vertx.setTimer(
                        timeoutMs,
                        t ->
                                promise.tryComplete(
                                        down(start, "no answer within " + timeoutMs + " ms")));
        Future<?> probe;
        try {
            probe = check.probe().get();
        } catch (RuntimeException e) {
            probe = Future.failedFuture(e);
        }
        probe.onComplete(
                ar -> {
                    vertx.cancelTimer(timer);
                    promise.tryComplete(
                            ar.succeeded()
                                    ? new JsonObject()
                                            .put("status", "up")
                                            .put("latency_ms", elapsedMs(start))
                                    : down(start, String.valueOf(ar.cause().getMessage())));
                });
        return promise.future();
    }

    private static JsonObject down(long start, String error) {
        return new JsonObject()
                .put("status", "down")
                .put("latency_ms", elapsedMs(start))
                .put("error", error);
    }

    private static long elapsedMs(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
