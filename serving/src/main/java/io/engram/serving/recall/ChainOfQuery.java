package io.engram.serving.recall;

import io.engram.query.agentic.RetrievalPlanner;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The later hops of a chain: after each search round the planner judges the best memories found so
 * far; if they do not suffice it names the next queries, which are embedded, searched and hydrated
 * like the first hop's and add their candidates (at {@link HybridSearch#FOLLOW_WEIGHT} per hop). At
 * most {@link #MAX_HOPS} rounds, none started with less than {@link #MIN_HOP_MS} left of the recall
 * deadline; ranking runs once, over everything found.
 */
final class ChainOfQuery {

    static final int MAX_HOPS = 3;

    /** A hop needs time for a judgment, an embedding, a search and a read. */
    static final long MIN_HOP_MS = 50;

    /** The memories a judgment reads. */
    static final int EVIDENCE = 8;

    private final Vertx vertx;
    private final QueryPlanning planning;
    private final HybridSearch search;
    private final Hydration hydration;
    private final RecallService.Limits limits;

    ChainOfQuery(
            Vertx vertx,
            QueryPlanning planning,
            HybridSearch search,
            Hydration hydration,
            RecallService.Limits limits) {
        this.vertx = vertx;
        this.planning = planning;
        this.search = search;
        this.hydration = hydration;
        this.limits = limits;
    }

    /** Runs hops 2.. of the call's chain. */
    Future<Void> follow(RecallCall call) {
        return hop(call, 2);
    }

    private Future<Void> hop(RecallCall call, int n) {
        if (n > MAX_HOPS) {
            return Future.succeededFuture();
        }
        long started = System.nanoTime();
        if (call.millisLeft() < MIN_HOP_MS) {
            call.hops.add(new RecallCall.HopRecord(n, List.of(), 0, "stopped: recall deadline", 0));
            call.degraded.add("hops");
            return Future.succeededFuture();
        }
        List<RetrievalPlanner.Evidence> evidence = evidence(call);
        return judge(call, evidence)
                .compose(
                        verdict -> {
                            if (verdict.sufficient() || verdict.queries().isEmpty()) {
                                call.hops.add(
                                        new RecallCall.HopRecord(
                                                n,
                                                List.of(),
                                                0,
                                                (verdict.sufficient()
                                                                ? "sufficient: "
                                                                : "stopped: ")
                                                        + verdict.reason(),
                                                System.nanoTime() - started));
                                return Future.succeededFuture();
                            }
                            List<String> texts = verdict.queries();
                            List<RecallCall.Query> batch =
                                    texts.stream()
                                            .map(
                                                    q ->
                                                            new RecallCall.Query(
                                                                    q, RecallCall.Role.FOLLOW, n))
                                            .toList();
                            List<String> all = new ArrayList<>(call.queries);
                            all.addAll(texts);
                            call.queries = List.copyOf(all);
                            int before = call.candidates.size();
                            Future<List<float[]>> vectors =
                                    call.vectors.isEmpty()
                                            ? Future.succeededFuture(List.of())
                                            : planning.embed(call, texts, false);
                            return vectors.compose(v -> search.search(call, batch, v))
                                    .compose(v -> hydration.hydrate(call))
                                    .compose(
                                            v -> {
                                                call.hops.add(
                                                        new RecallCall.HopRecord(
                                                                n,
                                                                texts,
                                                                Math.max(
                                                                        0,
                                                                        call.candidates.size()
                                                                                - before),
                                                                verdict.reason(),
                                                                System.nanoTime() - started));
                                                return hop(call, n + 1);
                                            });
                        });
    }

    /** The planner's verdict; the heuristic one when the model fails or time is short. */
    private Future<RetrievalPlanner.Hop> judge(
            RecallCall call, List<RetrievalPlanner.Evidence> evidence) {
        RetrievalPlanner planner = planning.hopPlanner(call);
        if (planner != planning.heuristicPlanner()) {
            long budget = call.budget(limits.llmTimeoutMs());
            if (budget > 0) {
                return Future.fromCompletionStage(
                                planner.next(call.rewritten, call.queries, evidence),
                                vertx.getOrCreateContext())
                        .timeout(budget, TimeUnit.MILLISECONDS)
                        .recover(
                                err -> {
                                    call.degraded.add("llm");
                                    return Future.succeededFuture(heuristic(call, evidence));
                                });
            }
        }
        return Future.succeededFuture(heuristic(call, evidence));
    }

    private RetrievalPlanner.Hop heuristic(
            RecallCall call, List<RetrievalPlanner.Evidence> evidence) {
        return planning.heuristicPlanner().nextNow(call.rewritten, call.queries, evidence);
    }

    /** The best memories found so far, by relevance. */
    private static List<RetrievalPlanner.Evidence> evidence(RecallCall call) {
        return call.candidates.values().stream()
                .filter(c -> c.row != null || c.source != null)
                .filter(c -> !Double.isNaN(c.relevance))
                .sorted(Comparator.comparingDouble((RecallCall.Candidate c) -> -c.relevance))
                .limit(EVIDENCE)
                .map(c -> new RetrievalPlanner.Evidence(c.content(), c.relevance))
                .toList();
    }
}
