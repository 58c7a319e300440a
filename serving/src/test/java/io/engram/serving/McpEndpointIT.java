package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.services.SharedServices;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The MCP tools, called with the MCP SDK's own client over streamable HTTP, with the API's keys and
 * scopes.
 */
class McpEndpointIT {

    private static McpSyncClient client(ServingFixture f, String key) {
        HttpClientStreamableHttpTransport transport =
                HttpClientStreamableHttpTransport.builder(f.base)
                        .endpoint("/mcp")
                        .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                        .customizeRequest(
                                b -> {
                                    if (key != null) {
                                        b.header("Authorization", "Bearer " + key);
                                    }
                                })
                        .build();
        return McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(15))
                .initializationTimeout(Duration.ofSeconds(15))
                .build();
    }

    private static String text(McpSchema.CallToolResult r) {
        StringBuilder out = new StringBuilder();
        for (McpSchema.Content c : r.content()) {
            if (c instanceof McpSchema.TextContent t) {
                out.append(t.text());
            }
        }
        return out.toString();
    }

    @Test
    void theToolsStoreRecallPackAndForgetWithTheCallersKey() throws Exception {
        try (ServingFixture f = new ServingFixture("mcp_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            McpSyncClient mcp = client(f, key);
            McpSchema.InitializeResult init = mcp.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("engram");
            assertThat(mcp.listTools().tools())
                    .extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrder(
                            "search_memories", "add_memory", "get_context", "forget_user");

            McpSchema.CallToolResult added =
                    mcp.callTool(
                            new McpSchema.CallToolRequest(
                                    "add_memory",
                                    Map.of(
                                            "user_id", "alice",
                                            "content", "Alice is allergic to peanuts.")));
            assertThat(added.isError()).as(text(added)).isFalse();
            assertThat(text(added)).contains("\"decision\":\"create\"");
            f.refresh();

            McpSchema.CallToolResult found =
                    mcp.callTool(
                            new McpSchema.CallToolRequest(
                                    "search_memories",
                                    Map.of(
                                            "user_id",
                                            "alice",
                                            "query",
                                            "What is Alice allergic to?")));
            assertThat(found.isError()).isFalse();
            assertThat(text(found)).contains("Alice is allergic to peanuts.");

            McpSchema.CallToolResult context =
                    mcp.callTool(
                            new McpSchema.CallToolRequest(
                                    "get_context",
                                    Map.of(
                                            "user_id", "alice",
                                            "query", "Can I have the satay?",
                                            "token_budget", 200)));
            assertThat(context.isError()).isFalse();
            assertThat(text(context)).contains("peanuts");

            // The API's validation, as a tool error naming the field.
            McpSchema.CallToolResult bad =
                    mcp.callTool(
                            new McpSchema.CallToolRequest(
                                    "search_memories",
                                    Map.of("user_id", "alice", "query", "x", "limit", 500)));
            assertThat(bad.isError()).isTrue();
            assertThat(text(bad)).contains("limit");

            // A read-only key cannot write through a tool either.
            McpSyncClient reader = client(f, f.key("acme", "default", "prod", "read"));
            reader.initialize();
            McpSchema.CallToolResult refused =
                    reader.callTool(
                            new McpSchema.CallToolRequest(
                                    "add_memory", Map.of("user_id", "alice", "content", "x y z")));
            assertThat(refused.isError()).isTrue();
            assertThat(text(refused)).contains("403");
            reader.close();

            McpSchema.CallToolResult forgotten =
                    mcp.callTool(
                            new McpSchema.CallToolRequest(
                                    "forget_user", Map.of("user_id", "alice")));
            assertThat(forgotten.isError()).isFalse();
            assertThat(text(forgotten)).contains("\"memories_deleted\":1");
            mcp.close();

            // Without a key, not even the handshake.
            McpSyncClient anonymous = client(f, null);
            assertThatThrownBy(anonymous::initialize).isNotNull();
        }
    }
}
