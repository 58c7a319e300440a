package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.Map;

/**
 * The load generator's requests: an HTTP client that sends recall requests and times each answer.
 */
final class LoadRequests {

    private LoadRequests() {}

    /** An answer: its status, body and {@code Server-Timing} header (null when absent). */
    record Answer(int status, String body, String serverTiming) {}

    /**
     * One answered request: when it was sent (since its phase began), the client's latency and the
     * service's own times from the answer's {@code Server-Timing} header (stage → ms, with {@code
     * total}).
     */
    record Sample(long sentMicros, long clientMicros, Map<String, Double> serverMs) {

        static Sample of(long sentMicros, long clientMicros, String serverTiming) {
            Map<String, Double> ms = new java.util.HashMap<>();
            if (serverTiming != null) {
                for (String part : serverTiming.split(",\\s*")) {
                    int at = part.indexOf(";dur=");
                    if (at > 0) {
                        ms.put(part.substring(0, at), Double.parseDouble(part.substring(at + 5)));
                    }
                }
            }
            return new Sample(sentMicros, clientMicros, ms);
        }
    }

    /**
     * The load generator's HTTP client: Vert.x's, on an event loop of its own, with pooled
     * keep-alive connections. Nothing blocks per request and no thread is started per request (the
     * JDK client's asynchronous calls start one on a 2-core machine, and its code is a second HTTP
     * stack for the JIT of this JVM, which also hosts the serving tier, to compile).
     */
    static final class LoadClient implements AutoCloseable {
        private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        private final HttpClientAgent http;

        LoadClient(int port) {
            http =
                    vertx.createHttpClient(
                            new HttpClientOptions()
                                    .setDefaultHost("127.0.0.1")
                                    .setDefaultPort(port)
                                    .setKeepAlive(true)
                                    .setTcpNoDelay(true),
                            new PoolOptions().setHttp1MaxSize(512).setMaxWaitQueueSize(-1));
        }

        /** One request; {@code key} and {@code body} may be null. Never blocks. */
        Future<Answer> send(HttpMethod method, String path, String key, String body) {
            RequestOptions options =
                    new RequestOptions().setMethod(method).setURI(path).setTimeout(30_000);
            if (key != null) {
                options.putHeader("Authorization", "Bearer " + key);
            }
            if (body != null) {
                options.putHeader("Content-Type", "application/json");
            }
            return http.request(options)
                    .compose(r -> body == null ? r.send() : r.send(Buffer.buffer(body)))
                    .compose(
                            response ->
                                    response.body()
                                            .map(
                                                    b ->
                                                            new Answer(
                                                                    response.statusCode(),
                                                                    b.toString(),
                                                                    response.getHeader(
                                                                            "Server-Timing"))));
        }

        @Override
        public void close() {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
