package io.engram.serving.recall;

import io.engram.query.QueryExpander;
import io.engram.query.QueryRewriter;
import io.engram.query.agentic.HeuristicRetrievalPlanner;
import io.engram.query.agentic.QuestionTime;
import io.engram.query.agentic.RetrievalPlanner;
import io.engram.query.agentic.RetrievalStrategy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Everything before the index is asked: the question rewritten from the conversation, its auxiliary
 * questions (heuristic, or an LLM's when asked for) and one embedding call for all of them. Each
 * step that fails degrades the recall and leaves the next one something to search with.
 */
final class QueryPlanning {

    private final Vertx vertx;
    private final EmbeddingWorker embedder;
    private final QueryExpander heuristic;
    private final Optional<QueryExpander> llm;
    private final HeuristicRetrievalPlanner heuristicPlanner = new HeuristicRetrievalPlanner();
    private final Optional<RetrievalPlanner> llmPlanner;
    private final RecallService.Limits limits;
    private final RecallStages stages;

    QueryPlanning(
            Vertx vertx,
            EmbeddingWorker embedder,
            QueryExpander heuristic,
            Optional<QueryExpander> llm,
            Optional<RetrievalPlanner> llmPlanner,
            RecallService.Limits limits,
            RecallStages stages) {
        this.vertx = vertx;
        this.embedder = embedder;
        this.heuristic = heuristic;
        this.llm = llm;
        this.llmPlanner = llmPlanner;
        this.limits = limits;
        this.stages = stages;
    }

    /** Whether planning this call waits for a paid LLM. */
    boolean usesLlm(RecallCall call) {
        return call.request.useLlm()
                && call.request.multiQuery()
                && (llm.isPresent() || plansWithLlm(call));
    }

    /**
     * Whether the model routes this call: it has one, and the request spends on it ({@code use_llm}
     * and {@code multi_query}, both on by default) and left the choice open.
     */
    private boolean plansWithLlm(RecallCall call) {
        return llmPlanner.isPresent()
                && call.request.useLlm()
                && call.request.multiQuery()
                && call.request.strategy() != RetrievalStrategy.DIRECT;
    }

    /** The planner a chain asks after each hop: the model's when it routed, else the heuristic. */
    RetrievalPlanner hopPlanner(RecallCall call) {
        return "llm".equals(call.planner) && llmPlanner.isPresent()
                ? llmPlanner.get()
                : heuristicPlanner;
    }

    HeuristicRetrievalPlanner heuristicPlanner() {
        return heuristicPlanner;
    }

    /** Sets the call's rewritten question, its route, its first hop's queries and their vectors. */
    Future<Void> prepare(RecallCall call) {
        QueryRewriter.Rewrite rewrite =
                QueryRewriter.rewrite(call.request.query(), call.request.history());
        call.rewritten = rewrite.query();
        call.wasRewritten = rewrite.rewritten();
        SearchRequest r = call.request;
        if (r.from() == null && r.to() == null) {
            call.window = QuestionTime.named(call.rewritten, Instant.now()).orElse(null);
        }
        // The route and the auxiliary questions are asked at once: with a model, neither waits for
        // the other; a split does not use the auxiliary questions.
        Future<RetrievalPlanner.Route> routed =
                stages.timed(RecallStages.Stage.ROUTE, call.stageNanos, () -> route(call));
        Future<List<String>> aux =
                stages.timed(RecallStages.Stage.EXPAND, call.stageNanos, () -> auxiliary(call));
        return Future.all(routed, aux)
                .compose(
                        both -> {
                            call.route = routed.result();
                            List<String> auxiliary =
                                    call.route.strategy() == RetrievalStrategy.SPLIT
                                            ? List.of()
                                            : aux.result();
                            return embed(call, queries(call, auxiliary));
                        })
                .map(
                        vectors -> {
                            call.vectors = vectors;
                            return (Void) null;
                        });
    }

    /** The route: the model's when there is one (the heuristic's when it fails), else heuristic. */
    private Future<RetrievalPlanner.Route> route(RecallCall call) {
        RetrievalStrategy requested = call.request.strategy();
        if (plansWithLlm(call)) {
            long budget = call.budget(limits.llmTimeoutMs());
            if (budget > 0) {
                return Future.fromCompletionStage(
                                llmPlanner.get().route(call.rewritten, requested),
                                vertx.getOrCreateContext())
                        .timeout(budget, TimeUnit.MILLISECONDS)
                        .map(
                                route -> {
                                    call.planner = "llm";
                                    return route;
                                })
                        .recover(
                                err -> {
                                    call.degraded.add("llm");
                                    return Future.succeededFuture(
                                            heuristicPlanner.routeNow(call.rewritten, requested));
                                });
            }
        }
        return Future.succeededFuture(heuristicPlanner.routeNow(call.rewritten, requested));
    }

    /**
     * The first hop: the rewritten question, then the parts of a split or the distinct auxiliary
     * questions.
     */
    private List<String> queries(RecallCall call, List<String> aux) {
        List<RecallCall.Query> first = new ArrayList<>();
        first.add(new RecallCall.Query(call.rewritten, RecallCall.Role.MAIN, 1));
        if (call.route.strategy() == RetrievalStrategy.SPLIT) {
            call.route.queries().stream()
                    .filter(q -> !q.equalsIgnoreCase(call.rewritten))
                    .limit(RetrievalPlanner.MAX_QUERIES_PER_HOP - 1)
                    .forEach(q -> first.add(new RecallCall.Query(q, RecallCall.Role.PART, 1)));
        } else {
            aux.stream()
                    .filter(q -> !q.equalsIgnoreCase(call.rewritten))
                    .limit(QueryExpander.MAX_AUXILIARY)
                    .forEach(q -> first.add(new RecallCall.Query(q, RecallCall.Role.AUXILIARY, 1)));
        }
        if (first.size() > 1 && embedder.busy()) {
            // Under load the other questions go first: three embeddings per request would queue
            // every recall behind them.
            first.subList(1, first.size()).clear();
            call.degraded.add("multi_query");
        }
        call.firstHop = List.copyOf(first);
        call.queries = first.stream().map(RecallCall.Query::text).toList();
        return call.queries;
    }

    /** One embedding call for all queries; none (BM25 only) when it fails or time is up. */
    private Future<List<float[]>> embed(RecallCall call, List<String> queries) {
        return embed(call, queries, true);
    }

    /** The same, timed as the call's embed stage or not (a later hop is timed as a whole). */
    Future<List<float[]>> embed(RecallCall call, List<String> queries, boolean timed) {
        long budget = call.budget(limits.embedTimeoutMs());
        if (budget == 0) {
            return Future.succeededFuture(List.of());
        }
        if (!timed) {
            return embedNow(call, queries, budget);
        }
        return stages.timed(
                RecallStages.Stage.EMBED, call.stageNanos, () -> embedNow(call, queries, budget));
    }

    private Future<List<float[]>> embedNow(RecallCall call, List<String> queries, long budget) {
        return embedder.embed(call.request.scope(), queries, budget)
                .recover(
                        err -> {
                            call.degraded.add("embedder");
                            return Future.succeededFuture(List.of());
                        });
    }

    private Future<List<String>> auxiliary(RecallCall call) {
        if (!call.request.multiQuery()) {
            return Future.succeededFuture(List.of());
        }
        long budget =
                call.request.useLlm() && llm.isPresent() ? call.budget(limits.llmTimeoutMs()) : 0;
        if (budget > 0) {
            return Future.fromCompletionStage(
                            llm.get().expand(call.rewritten), vertx.getOrCreateContext())
                    .timeout(budget, TimeUnit.MILLISECONDS)
                    .recover(
                            err -> {
                                call.degraded.add("llm");
                                return heuristic(call);
                            });
        }
        return heuristic(call);
    }

    private Future<List<String>> heuristic(RecallCall call) {
        return Future.fromCompletionStage(
                heuristic.expand(call.rewritten), vertx.getOrCreateContext());
    }
}
