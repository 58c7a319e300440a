package io.engram.serving.api;

import static io.engram.serving.api.Exchange.json;
import static io.engram.serving.api.Exchange.principal;
import static io.engram.serving.api.Exchange.requestId;

import io.engram.memory.Scope;
import io.engram.ranking.ContextPacker;
import io.engram.ranking.RankingSettings;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Routes;
import io.engram.serving.recall.RecallService;
import io.engram.serving.recall.SearchRequest;
import io.engram.serving.turns.TurnIngest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The conversation's way in and out: turns sent, memories recalled, a prompt block packed. */
public final class RecallHandlers {

    private static final Set<String> TURN_FIELDS =
            Set.of("user_id", "session_id", "project_id", "end_session", "turns");

    private static final Set<String> CONTEXT_FIELDS = contextFields();

    private final RecallService recall;
    private final TurnIngest turns;
    private final RankingSettings ranking;

    public RecallHandlers(RecallService recall, TurnIngest turns, RankingSettings ranking) {
        this.recall = recall;
        this.turns = turns;
        this.ranking = ranking;
    }

    public void register(Routes routes) {
        routes.add(HttpMethod.POST, "/v1/turns", this::turns);
        routes.add(HttpMethod.POST, "/v1/memories/search", this::search);
        routes.add(HttpMethod.POST, "/v1/context", this::context);
    }

    private void turns(RoutingContext ctx) {
        Principal p = principal(ctx, "write");
        JsonObject body = Fields.body(ctx, TURN_FIELDS);
        Scope scope = p.scopeFor(Fields.id(body, "user_id"), Fields.optionalId(body, "project_id"));
        String session = Fields.id(body, "session_id");
        turns.send(TurnIngest.events(body, scope, session))
                .onSuccess(
                        n ->
                                json(
                                        ctx,
                                        202,
                                        new JsonObject()
                                                .put("accepted", n)
                                                .put("session_id", session)
                                                .put("request_id", requestId(ctx))))
                .onFailure(ctx::fail);
    }

    private void search(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        SearchRequest request =
                SearchRequest.parse(Fields.body(ctx, SearchRequest.FIELDS), p, ranking);
        recall.search(request, requestId(ctx))
                .onSuccess(
                        r -> {
                            ctx.response().putHeader("Server-Timing", r.serverTiming());
                            json(ctx, 200, r.body());
                        })
                .onFailure(ctx::fail);
    }

    /** A search whose memories are packed into one system message within a token budget. */
    private void context(RoutingContext ctx) {
        Principal p = principal(ctx, "read");
        JsonObject body = Fields.body(ctx, CONTEXT_FIELDS);
        int budget = Fields.integer(body, "token_budget", 1000, 50, 16_000);
        JsonObject searchBody = body.copy();
        searchBody.remove("token_budget");
        if (!searchBody.containsKey("limit")) {
            searchBody.put("limit", 20);
        }
        SearchRequest request = SearchRequest.parse(searchBody, p, ranking);
        recall.search(request, requestId(ctx))
                .map(RecallService.Recall::body)
                .onSuccess(r -> json(ctx, 200, packed(r, budget)))
                .onFailure(ctx::fail);
    }

    private static JsonObject packed(JsonObject recalled, int budget) {
        List<ContextPacker.Item> items = new ArrayList<>();
        JsonArray memories = recalled.getJsonArray("memories");
        for (int i = 0; i < memories.size(); i++) {
            JsonObject m = memories.getJsonObject(i);
            items.add(
                    new ContextPacker.Item(
                            m.getString("id"),
                            m.getString("content"),
                            Instant.parse(m.getString("valid_from"))));
        }
        ContextPacker.PromptBlock block = ContextPacker.pack(items, budget);
        return new JsonObject()
                .put(
                        "message",
                        block.text().isEmpty()
                                ? null
                                : new JsonObject()
                                        .put("role", "system")
                                        .put("content", block.text()))
                .put("memory_ids", new JsonArray(block.includedIds()))
                .put("tokens", block.tokens())
                .put("omitted", block.omitted())
                .put("skipped", recalled.getBoolean("skipped"))
                .put("degraded", recalled.getJsonArray("degraded"))
                .put("request_id", recalled.getString("request_id"));
    }

    private static Set<String> contextFields() {
        Set<String> fields = new HashSet<>(SearchRequest.FIELDS);
        fields.add("token_budget");
        return Set.copyOf(fields);
    }
}
