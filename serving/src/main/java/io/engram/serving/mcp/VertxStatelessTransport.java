package io.engram.serving.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * MCP's streamable HTTP transport in its stateless form, on a Vert.x route: each POST carries one
 * JSON-RPC message; a request is answered with its JSON-RPC response, a notification with 202. No
 * server-initiated stream (a GET is answered 405, which the protocol allows). The request's API key
 * rides in the transport context, so each tool acts with the caller's key and scopes.
 */
final class VertxStatelessTransport implements McpStatelessServerTransport {

    /** The context key of the caller's {@code Authorization} header. */
    static final String AUTHORIZATION = "authorization";

    private final McpJsonMapper json;
    private volatile McpStatelessServerHandler handler;

    VertxStatelessTransport(McpJsonMapper json) {
        this.json = json;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    /** Handles one POST of the MCP endpoint. */
    void handle(RoutingContext ctx) {
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, ctx.body().asString());
        } catch (Exception e) {
            ctx.response()
                    .setStatusCode(400)
                    .putHeader("Content-Type", "application/json")
                    .end(
                            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                                    + "\"message\":\"not a JSON-RPC message\"}}");
            return;
        }
        McpTransportContext context =
                McpTransportContext.create(
                        Map.of(AUTHORIZATION, ctx.request().getHeader("Authorization")));
        if (message instanceof McpSchema.JSONRPCRequest request) {
            handler.handleRequest(context, request)
                    .subscribe(
                            response -> {
                                try {
                                    String body = json.writeValueAsString(response);
                                    ctx.response()
                                            .putHeader("Content-Type", "application/json")
                                            .end(body);
                                } catch (Exception e) {
                                    ctx.fail(e);
                                }
                            },
                            ctx::fail);
        } else if (message instanceof McpSchema.JSONRPCNotification notification) {
            handler.handleNotification(context, notification)
                    .subscribe(v -> {}, ctx::fail, () -> ctx.response().setStatusCode(202).end());
        } else {
            // A response from the client: nothing of ours asked for one.
            ctx.response().setStatusCode(202).end();
        }
    }
}
