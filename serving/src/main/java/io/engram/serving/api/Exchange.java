package io.engram.serving.api;

import io.engram.memory.Scope;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/** What every handler reads from a request and how it answers: the shared few lines. */
public final class Exchange {

    /** The request id, set on every request before any handler runs. */
    public static final String REQUEST_ID = "request_id";

    /** The caller, set once its API key is checked. */
    public static final String PRINCIPAL = "principal";

    private Exchange() {}

    static String requestId(RoutingContext ctx) {
        return ctx.get(REQUEST_ID);
    }

    /** The caller, with 403 unless its key holds {@code scope}. */
    static Principal principal(RoutingContext ctx, String scope) {
        Principal p = ctx.get(PRINCIPAL);
        p.require(scope);
        return p;
    }

    /** The scope named by the {@code user_id} and {@code project_id} query parameters. */
    static Scope queryScope(RoutingContext ctx, Principal p) {
        return p.scopeFor(requiredUser(ctx), optionalParam(ctx, "project_id"));
    }

    static String requiredUser(RoutingContext ctx) {
        String user = ctx.queryParams().get("user_id");
        if (user == null) {
            throw Problem.badRequest("user_id: required query parameter");
        }
        return Fields.checkId("user_id", user);
    }

    static String optionalParam(RoutingContext ctx, String name) {
        String v = ctx.queryParams().get(name);
        return v == null ? null : Fields.checkId(name, v);
    }

    static String enumParam(RoutingContext ctx, String name, Set<String> allowed) {
        String v = ctx.queryParams().get(name);
        if (v != null && !allowed.contains(v)) {
            throw Problem.badRequest(
                    name + ": '" + v + "' is not one of " + String.join(", ", allowed));
        }
        return v;
    }

    static int intParam(RoutingContext ctx, String name, int def, int min, int max) {
        String v = ctx.queryParams().get(name);
        if (v == null) {
            return def;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw Problem.badRequest(name + ": must be a whole number from " + min + " to " + max);
        }
    }

    /** A memory, with its version as the ETag an edit's If-Match may send back. */
    static void withETag(RoutingContext ctx, JsonObject memory) {
        ctx.response().putHeader("ETag", "\"" + memory.getInteger("version") + "\"");
        json(ctx, 200, memory);
    }

    public static void json(RoutingContext ctx, int status, JsonObject body) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }

    static void noContent(RoutingContext ctx) {
        ctx.response().setStatusCode(204).end();
    }
}
