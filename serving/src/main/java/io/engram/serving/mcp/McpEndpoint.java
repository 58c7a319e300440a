package io.engram.serving.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Engram's memories as MCP tools ({@code POST /mcp}, streamable HTTP, stateless): {@code
 * search_memories}, {@code add_memory}, {@code get_context} and {@code forget_user}. Each tool
 * calls the REST API of this instance with the caller's API key, so keys, scopes, validation and
 * limits are exactly the API's; a refusal comes back as a tool error with the API's problem detail.
 */
public final class McpEndpoint implements AutoCloseable {

    private final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    private final VertxStatelessTransport transport = new VertxStatelessTransport(json);
    private final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();
    private final IntSupplier port;
    private final McpStatelessSyncServer server;

    /** {@code port}: this instance's API port, known once it listens. */
    public McpEndpoint(String version, IntSupplier port) {
        this.port = port;
        this.server =
                McpServer.sync(transport)
                        .jsonMapper(json)
                        .serverInfo("engram", version)
                        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                        .instructions(
                                "Long-term memory of the users of a chat product. Search a user's"
                                        + " memories before answering them; add what they tell you"
                                        + " that is worth remembering.")
                        .toolCall(
                                tool(
                                        "search_memories",
                                        "The memories most relevant to a message, ranked.",
                                        "{\"type\":\"object\",\"required\":[\"user_id\",\"query\"],"
                                                + "\"properties\":{\"user_id\":{\"type\":\"string\"},"
                                                + "\"query\":{\"type\":\"string\"},"
                                                + "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":50},"
                                                + "\"strategy\":{\"type\":\"string\",\"enum\":[\"auto\",\"direct\",\"split\",\"chain\"]}}}"),
                                (c, r) -> call(c, "POST", "/v1/memories/search", search(r)))
                        .toolCall(
                                tool(
                                        "add_memory",
                                        "Stores a memory about a user (deduplicated; a changed"
                                                + " value supersedes the old one).",
                                        "{\"type\":\"object\",\"required\":[\"user_id\",\"content\"],"
                                                + "\"properties\":{\"user_id\":{\"type\":\"string\"},"
                                                + "\"content\":{\"type\":\"string\"},"
                                                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}"),
                                (c, r) -> call(c, "POST", "/v1/memories", body(r)))
                        .toolCall(
                                tool(
                                        "get_context",
                                        "A user's relevant memories packed into a token budget,"
                                                + " as text to put in a prompt.",
                                        "{\"type\":\"object\",\"required\":[\"user_id\",\"query\"],"
                                                + "\"properties\":{\"user_id\":{\"type\":\"string\"},"
                                                + "\"query\":{\"type\":\"string\"},"
                                                + "\"token_budget\":{\"type\":\"integer\",\"minimum\":50,\"maximum\":16000}}}"),
                                (c, r) -> call(c, "POST", "/v1/context", body(r)))
                        .toolCall(
                                tool(
                                        "forget_user",
                                        "Forgets everything of a user, irreversibly.",
                                        "{\"type\":\"object\",\"required\":[\"user_id\"],"
                                                + "\"properties\":{\"user_id\":{\"type\":\"string\"}}}"),
                                (c, r) ->
                                        call(
                                                c,
                                                "DELETE",
                                                "/v1/memories?user_id="
                                                        + java.net.URLEncoder.encode(
                                                                String.valueOf(
                                                                        r.arguments()
                                                                                .get("user_id")),
                                                                java.nio.charset.StandardCharsets
                                                                        .UTF_8),
                                                null))
                        .build();
    }

    /** Handles {@code POST /mcp}. */
    public void handle(RoutingContext ctx) {
        transport.handle(ctx);
    }

    private McpSchema.Tool tool(String name, String description, String schema) {
        return McpSchema.Tool.builder()
                .name(name)
                .description(description)
                .inputSchema(json, schema)
                .build();
    }

    private static JsonObject body(McpSchema.CallToolRequest r) {
        return new JsonObject(r.arguments() == null ? Map.of() : r.arguments());
    }

    /** A search: forced (a tool call is an explicit request, not chit-chat to skip). */
    private static JsonObject search(McpSchema.CallToolRequest r) {
        return body(r).put("force", true);
    }

    /** Calls this instance's API with the caller's key; the answer's JSON is the tool's text. */
    private McpSchema.CallToolResult call(
            McpTransportContext context, String method, String path, JsonObject body) {
        Object authorization = context.get(VertxStatelessTransport.AUTHORIZATION);
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.getAsInt() + path))
                        .timeout(Duration.ofSeconds(10))
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body.encode()))
                        .header("Content-Type", "application/json");
        if (authorization != null) {
            b.header("Authorization", authorization.toString());
        }
        try {
            HttpResponse<String> response =
                    http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            boolean ok = response.statusCode() / 100 == 2;
            return McpSchema.CallToolResult.builder()
                    .addTextContent(response.body())
                    .isError(!ok)
                    .build();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return McpSchema.CallToolResult.builder()
                    .addTextContent("Engram did not answer: " + e)
                    .isError(true)
                    .build();
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
