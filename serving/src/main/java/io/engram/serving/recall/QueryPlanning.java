package io.engram.serving.recall;

import io.engram.query.QueryExpander;
import io.engram.query.QueryRewriter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
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
    private final RecallService.Limits limits;
    private final RecallStages stages;

    QueryPlanning(
            Vertx vertx,
            EmbeddingWorker embedder,
            QueryExpander heuristic,
            Optional<QueryExpander> llm,
            RecallService.Limits limits,
            RecallStages stages) {
        this.vertx = vertx;
        this.embedder = embedder;
        this.heuristic = heuristic;
        this.llm = llm;
        this.limits = limits;
        this.stages = stages;
    }

    /** Whether planning this call waits for a paid LLM. */
    boolean usesLlm(RecallCall call) {
        return call.request.multiQuery() && llm.isPresent() && call.request.useLlm();
    }

    /** Sets the call's rewritten question, its queries and their vectors. */
    Future<Void> prepare(RecallCall call) {
        QueryRewriter.Rewrite rewrite =
                QueryRewriter.rewrite(call.request.query(), call.request.history());
        call.rewritten = rewrite.query();
        call.wasRewritten = rewrite.rewritten();
        return stages.timed(RecallStages.Stage.EXPAND, call.stageNanos, () -> auxiliary(call))
                .compose(aux -> embed(call, queries(call, aux)))
                .map(
                        vectors -> {
                            call.vectors = vectors;
                            return (Void) null;
                        });
    }

    /** The rewritten question first, then its distinct auxiliary questions. */
    private List<String> queries(RecallCall call, List<String> aux) {
        List<String> queries = new ArrayList<>();
        queries.add(call.rewritten);
        aux.stream()
                .filter(q -> !q.equalsIgnoreCase(call.rewritten))
                .limit(QueryExpander.MAX_AUXILIARY)
                .forEach(queries::add);
        if (queries.size() > 1 && embedder.busy()) {
            // Under load the auxiliary questions go first: three embeddings per request would
            // queue every recall behind them.
            queries.subList(1, queries.size()).clear();
            call.degraded.add("multi_query");
        }
        call.queries = queries;
        return queries;
    }

    /** One embedding call for all queries; none (BM25 only) when it fails or time is up. */
    private Future<List<float[]>> embed(RecallCall call, List<String> queries) {
        long budget = call.budget(limits.embedTimeoutMs());
        if (budget == 0) {
            return Future.succeededFuture(List.of());
        }
        return stages.timed(
                RecallStages.Stage.EMBED,
                call.stageNanos,
                () ->
                        embedder.embed(call.request.scope(), queries, budget)
                                .recover(
                                        err -> {
                                            call.degraded.add("embedder");
                                            return Future.succeededFuture(List.of());
                                        }));
    }

    private Future<List<String>> auxiliary(RecallCall call) {
        if (!call.request.multiQuery()) {
            return Future.succeededFuture(List.of());
        }
        long budget = usesLlm(call) ? call.budget(limits.llmTimeoutMs()) : 0;
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
