package io.engram.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server speaking the OpenAI chat-completions wire format, standing in for a paid remote
 * model. Each request takes the next scripted reply; the requests are kept for assertions.
 */
public final class FakeChatServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A scripted reply: HTTP status, body, and a delay before answering. */
    public record Reply(int status, String body, long delayMs) {

        /** A 200 answer whose message content is {@code content}. */
        public static Reply content(String content) {
            ObjectNode root = JSON.createObjectNode();
            root.put("id", "chatcmpl-test");
            root.put("object", "chat.completion");
            ObjectNode choice = root.putArray("choices").addObject();
            choice.put("index", 0);
            choice.putObject("message").put("role", "assistant").put("content", content);
            choice.put("finish_reason", "stop");
            root.putObject("usage")
                    .put("prompt_tokens", 120)
                    .put("completion_tokens", 40)
                    .put("total_tokens", 160);
            return new Reply(200, root.toString(), 0);
        }

        public static Reply status(int status, String body) {
            return new Reply(status, body, 0);
        }

        public Reply delayed(long ms) {
            return new Reply(status, body, ms);
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedDeque<Reply> script = new ConcurrentLinkedDeque<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor();
    private volatile Reply fallback = Reply.status(500, "{\"error\":\"no scripted reply\"}");

    public FakeChatServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public FakeChatServer then(Reply reply) {
        script.add(reply);
        return this;
    }

    /** The reply used once the script is exhausted. */
    public FakeChatServer otherwise(Reply reply) {
        this.fallback = reply;
        return this;
    }

    public int calls() {
        return calls.get();
    }

    public List<JsonNode> requests() {
        return requests;
    }

    public List<String> authorizations() {
        return authorizations;
    }

    private void handle(HttpExchange exchange) throws IOException {
        calls.incrementAndGet();
        requests.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
        authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        Reply reply = script.pollFirst();
        Reply chosen = reply == null ? fallback : reply;
        if (chosen.delayMs() > 0) {
            // a slow model: answer later from another thread, as a real server would
            delays.schedule(
                    () -> answer(exchange, chosen), chosen.delayMs(), TimeUnit.MILLISECONDS);
        } else {
            answer(exchange, chosen);
        }
    }

    private static void answer(HttpExchange exchange, Reply reply) {
        try {
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), body.length);
            exchange.getResponseBody().write(body);
        } catch (IOException e) {
            // the client gave up (timeout): nothing to answer
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        delays.shutdownNow();
    }
}
