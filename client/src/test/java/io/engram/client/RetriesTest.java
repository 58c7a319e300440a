package io.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.SearchResponse;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retries of 429 and 503, timeouts and problem documents, against a loopback server. */
class RetriesTest {

    /** One scripted answer: status, Retry-After (or null) and body. */
    private record Scripted(int status, String retryAfter, String body) {}

    private HttpServer server;
    private final ConcurrentLinkedQueue<Scripted> script = new ConcurrentLinkedQueue<>();
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/",
                exchange -> {
                    seen.add(
                            exchange.getRequestMethod()
                                    + " "
                                    + exchange.getRequestURI()
                                    + " "
                                    + exchange.getRequestHeaders().getFirst("Authorization"));
                    exchange.getRequestBody().readAllBytes();
                    Scripted s = script.poll();
                    if (s == null) {
                        s = new Scripted(500, null, "{}");
                    }
                    if (s.retryAfter() != null) {
                        exchange.getResponseHeaders().add("Retry-After", s.retryAfter());
                    }
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    byte[] b = s.body().getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(s.status(), b.length);
                    exchange.getResponseBody().write(b);
                    exchange.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private EngramClient client(int retries) {
        return EngramClient.builder("http://127.0.0.1:" + server.getAddress().getPort(), "ek_test")
                .maxRetries(retries)
                .firstPause(Duration.ofMillis(20))
                .timeout(Duration.ofSeconds(2))
                .build();
    }

    private static String problem(int status, String detail) {
        return "{\"type\":\"about:blank\",\"title\":\"t\",\"status\":"
                + status
                + ",\"detail\":\""
                + detail
                + "\",\"request_id\":\"req-"
                + status
                + "\"}";
    }

    @Test
    void a503IsRetriedAfterItsRetryAfter() {
        script.add(new Scripted(503, "1", problem(503, "postgres: not reachable")));
        script.add(new Scripted(429, null, problem(429, "too many requests")));
        script.add(
                new Scripted(200, null, "{\"memories\":[],\"request_id\":\"r1\",\"degraded\":[]}"));
        long t0 = System.nanoTime();
        SearchResponse r = client(3).search(SearchRequest.of("ann", "where do I live?"));
        assertThat(r.requestId()).isEqualTo("r1");
        assertThat(seen).hasSize(3);
        assertThat(seen.get(0)).isEqualTo("POST /v1/memories/search Bearer ek_test");
        // The first retry waited for the second Retry-After asked.
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(900));
    }

    @Test
    void beyondItsRetriesTheCallerGetsTheLastRefusal() {
        for (int i = 0; i < 3; i++) {
            script.add(new Scripted(429, null, problem(429, "rate: 5 requests per second")));
        }
        EngramException e =
                Assertions.assertThrows(
                        EngramException.Unavailable.class,
                        () -> client(2).search(SearchRequest.of("ann", "q")));
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.requestId()).isEqualTo("req-429");
        assertThat(seen).hasSize(3);
    }

    @Test
    void aProblemBecomesATypedExceptionNamingTheField() {
        script.add(new Scripted(400, null, problem(400, "weights.semantic: must be at most 10")));
        EngramException.BadRequest e =
                Assertions.assertThrows(
                        EngramException.BadRequest.class,
                        () -> client(3).search(SearchRequest.of("ann", "q")));
        assertThat(e.field()).isEqualTo("weights.semantic");
        assertThat(e.requestId()).isEqualTo("req-400");
        assertThat(e.getMessage()).contains("weights.semantic: must be at most 10", "req-400");
        assertThat(seen).hasSize(1);
        assertThat(EngramException.fieldOf("history[2].role: unknown"))
                .isEqualTo("history[2].role");
        assertThat(EngramException.fieldOf("Not found")).isNull();
    }

    @Test
    void noAnswerIsAnExceptionToo() {
        EngramClient nowhere =
                EngramClient.builder("http://127.0.0.1:1", "k")
                        .connectTimeout(Duration.ofMillis(500))
                        .build();
        EngramException e =
                Assertions.assertThrows(
                        EngramException.class, () -> nowhere.search(SearchRequest.of("a", "q")));
        assertThat(e.status()).isZero();
        assertThat(e.getMessage()).contains("no answer");
    }

    @Test
    void theAsyncCallsCompleteWithTheSameAnswers() throws Exception {
        script.add(new Scripted(200, null, "{\"memories\":[],\"request_id\":\"r2\"}"));
        assertThat(client(0).searchAsync(SearchRequest.of("a", "q")).get().requestId())
                .isEqualTo("r2");
        script.add(new Scripted(404, null, problem(404, "memory: not found")));
        var failed = client(0).getAsync("a", "m1");
        Throwable cause = Assertions.assertThrows(Exception.class, failed::get).getCause();
        assertThat(cause).isInstanceOf(EngramException.NotFound.class);
        assertThat(seen.get(1)).startsWith("GET /v1/memories/m1?user_id=a ");
    }
}
