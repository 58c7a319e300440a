package io.engram.benchmarks.locomo;

import io.engram.benchmarks.locomo.LocomoEvaluation.Ingestion;
import io.engram.benchmarks.support.BenchmarkStores;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/** The LoCoMo results page: the default request by category, its variants and strategies. */
final class LocomoReport {

    private LocomoReport() {}

    /** The page: the default request by category, its variants, then the strategies. */
    static String render(
            Path bench,
            Path runFile,
            Ingestion main,
            Map<String, Map<String, Double>> variants,
            boolean multi) {
        StringBuilder out = new StringBuilder();
        out.append("# LoCoMo retrieval (").append(bench.getFileName()).append(")\n\n");
        out.append("Command: `")
                .append(BenchmarkStores.commandPrefix())
                .append("benchmarks/bin/locomo ")
                .append(bench)
                .append(multi ? " true" : "")
                .append("`\n\n");
        out.append("Machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores; date ")
                .append(LocalDate.now())
                .append(". ")
                .append(main.turns())
                .append(" turns ingested through Kafka and the ExtractionJob (heuristic extractor,")
                .append(" excerpts of 3 turns) in ")
                .append(String.format("%.0f s", main.ingestSeconds()))
                .append(" including stack start: ")
                .append(main.memories()[0])
                .append(" active memories, ")
                .append(main.memories()[1])
                .append(" of them raw excerpts. Questions asked through the search API, ")
                .append(multi ? "multi-query on" : "multi-query off")
                .append(", limit 10.\n\n");
        out.append(
                "| category | n | any@5 | all@5 | frac@5 | cov@5 | any@10 | all@10 | frac@10 | cov@10 |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|\n");
        main.scores()
                .forEach(
                        (cat, m) ->
                                row(
                                        out,
                                        cat + " | " + m.get("n").intValue(),
                                        m,
                                        "any@5",
                                        "all@5",
                                        "frac@5",
                                        "cov@5",
                                        "any@10",
                                        "all@10",
                                        "frac@10",
                                        "cov@10"));
        out.append("\nThe run file is `")
                .append(runFile)
                .append("`; `python3")
                .append(" ../shared/bench/locomo/score_run.py ")
                .append(bench)
                .append(" ")
                .append(runFile)
                .append(" 5,10` scores it the same way.\n\n")
                .append("Reference points (dev, BM25 over single turns): any@10 0.593, all@10")
                .append(" 0.495. Target: any@10 ≥ 0.80, all@10 ≥ 0.70 with cov@10 ≤ 25.\n\n")
                .append("### Variants (all questions)\n\n")
                .append("Candidates from k-NN, BM25 or both; relevance is the mean of cosine")
                .append(" similarity and BM25 score over the query's best (either alone when only")
                .append(" one ran); ranked by the default weights or by relevance alone (request")
                .append(" weights semantic = 1, others 0); multi-query adds two heuristic")
                .append(" auxiliary questions; the excerpt rows filter the same store to the raw")
                .append(" excerpts. Before each variant the usage counts, last-access times and")
                .append(" recall events the previous one wrote are reset, so no variant ranks")
                .append(" with another's recalls. Within a run, questions are asked in file order")
                .append(" and each one's bookkeeping is live for the next, as in production. The")
                .append(" last two rows are separate ingestions: extracted facts without")
                .append(" excerpts, and every turn alone as a memory.\n\n")
                .append("| variant | any@5 | all@5 | any@10 | all@10 | frac@10 | cov@10 |\n")
                .append("|---|---|---|---|---|---|---|\n");
        variants.forEach(
                (name, m) ->
                        row(
                                out, name, m, "any@5", "all@5", "any@10", "all@10", "frac@10",
                                "cov@10"));
        out.append("\n### Retrieval strategies\n\n")
                .append("The same questions with each `strategy` of the search request, default")
                .append(" weights unless named: `direct` searches the question once; `split` adds")
                .append(" one search per subject or question it joins; `chain` searches again with")
                .append(" what its best memories name that the question does not, up to 3 hops;")
                .append(" `auto` chooses by the question's shape. Heuristic planner (no LLM).")
                .append(" all@10 by category:\n\n")
                .append(
                        "| strategy | any@10 | all@10 | cov@10 | single-hop | temporal | multi-hop |")
                .append(" open-domain |\n|---|---|---|---|---|---|---|---|\n");
        main.strategies()
                .forEach(
                        (name, byCategory) -> {
                            Map<String, Double> all = byCategory.get("all");
                            out.append("| ")
                                    .append(name)
                                    .append(" | ")
                                    .append(all.get("any@10"))
                                    .append(" | ")
                                    .append(all.get("all@10"))
                                    .append(" | ")
                                    .append(all.get("cov@10"));
                            for (String c :
                                    List.of(
                                            "4-single-hop",
                                            "2-temporal",
                                            "1-multi-hop",
                                            "3-open-domain")) {
                                Map<String, Double> m = byCategory.get(c);
                                out.append(" | ").append(m == null ? "" : m.get("all@10"));
                            }
                            out.append(" |\n");
                        });
        return out.toString();
    }

    /** One table row: the label, then the named figures. */
    private static void row(
            StringBuilder out, String label, Map<String, Double> m, String... keys) {
        out.append("| ").append(label);
        for (String k : keys) {
            out.append(" | ").append(m.get(k));
        }
        out.append(" |\n");
    }
}
