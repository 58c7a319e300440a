package io.engram.benchmarks.locomo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.extraction.Excerpts;
import io.engram.local.LocalStack;
import io.engram.serving.recall.SearchRequest;
import java.io.BufferedReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The LoCoMo retrieval evaluation on a fresh local stack: every conversation goes through the real
 * write plane (turns → Kafka → ExtractionJob → PostgreSQL/OpenSearch), one user per conversation,
 * speakers named, session timestamps as turn times; then every question is asked through {@code
 * POST /v1/memories/search}. Writes the run file (with each memory's source_turn_ids) and prints
 * any@k, all@k, frac@k, cov@k for k = 5, 10.
 *
 * <p>{@code LocomoEvaluation <benchmark.jsonl> <run.jsonl> <report.md> [multi_query]}
 */
public final class LocomoEvaluation {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LocomoEvaluation() {}

    public static void main(String[] args) throws Exception {
        Path bench = Path.of(args[0]);
        Path runFile = Path.of(args[1]);
        Path report = Path.of(args[2]);
        boolean multi = args.length > 3 && Boolean.parseBoolean(args[3]);
        List<JsonNode> conversations = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(bench)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    conversations.add(JSON.readTree(line));
                }
            }
        }
        List<LocomoScorer.Qa> qas = new ArrayList<>();
        for (JsonNode c : conversations) {
            for (JsonNode q : c.path("qas")) {
                Set<String> gold = new HashSet<>();
                q.path("evidence").forEach(e -> gold.add(e.asText()));
                qas.add(
                        new LocomoScorer.Qa(
                                q.path("qa_id").asText(),
                                q.path("category").asInt() + "-" + q.path("category_name").asText(),
                                gold));
            }
        }
        // The default write plane (facts and excerpts), every variant asked on it. With
        // -Dlocomo.quick=true only the default request is asked, and no report is written: a
        // quick check while tuning.
        boolean quick = Boolean.getBoolean("locomo.quick");
        Ingestion main =
                ingestAndAsk(
                        conversations,
                        Map.of(),
                        qas,
                        runFile,
                        multi,
                        quick ? List.of() : VARIANTS,
                        "the run above");
        if (quick) {
            System.out.println("quick run: " + main.scores().get("all"));
            return;
        }
        // Extracted facts alone: excerpts switched off in the write plane.
        Path scratch = Files.createTempDirectory("engram-locomo-facts-");
        Ingestion factsOnly =
                ingestAndAsk(
                        conversations,
                        Map.of("ENGRAM_EXTRACTION_EXCERPT_TURNS", "0"),
                        qas,
                        scratch.resolve("run.jsonl"),
                        multi,
                        List.of(),
                        "");
        // Raw single turns alone: one-turn excerpts, no facts, no summaries.
        Ingestion turnsOnly =
                ingestAndAsk(
                        conversations,
                        Map.of(
                                "ENGRAM_EXTRACTION_EXCERPT_TURNS",
                                "1",
                                "ENGRAM_EXTRACTION_FACTS",
                                "false"),
                        qas,
                        scratch.resolve("run.jsonl"),
                        multi,
                        List.of(),
                        "");
        BenchmarkStores.deleteTree(scratch);
        Map<String, Map<String, Double>> variants = new LinkedHashMap<>(main.variants());
        variants.put(
                "raw single turns only (write plane with extraction.excerpt_turns = 1,"
                        + " extraction.facts = false), hybrid, default weights",
                turnsOnly.scores().get("all"));
        variants.put(
                "extracted facts only (write plane with extraction.excerpt_turns = 0), hybrid,"
                        + " default weights",
                factsOnly.scores().get("all"));
        String text = LocomoReport.render(bench, runFile, main, variants, multi);
        System.out.println(text);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
    }

    /** One ingestion: its scores, the variants asked on it, its size and how long it took. */
    record Ingestion(
            Map<String, Map<String, Double>> scores,
            Map<String, Map<String, Double>> variants,
            Map<String, Map<String, Map<String, Double>>> strategies,
            int turns,
            long[] memories,
            double ingestSeconds) {}

    /**
     * Starts a fresh local stack with these settings, ingests every conversation, asks every
     * question (written to {@code runFile}), then every variant; removes the stack's home.
     */
    private static Ingestion ingestAndAsk(
            List<JsonNode> conversations,
            Map<String, String> settings,
            List<LocomoScorer.Qa> qas,
            Path runFile,
            boolean multi,
            List<Variant> variantsToAsk,
            String mainLabel)
            throws Exception {
        Path home = Files.createTempDirectory("engram-locomo-");
        Map<String, String> env = LocalStack.freePortSettings(home);
        env.put("ENGRAM_BOOTSTRAP_KEY", "ek_" + "1".repeat(40));
        env.put("ENGRAM_EXTRACTION_PARALLELISM", "2");
        env.putAll(BenchmarkStores.callerSettings());
        env.putAll(settings);
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        long t0 = System.nanoTime();
        try (LocalStack stack = LocalStack.start(config)) {
            int turns = LocomoStack.ingest(stack.config(), conversations);
            LocomoStack.awaitIngested(stack.config());
            double ingestSeconds = (System.nanoTime() - t0) / 1e9;
            long[] memories = LocomoStack.activeMemories(stack.config());
            var run = ask(stack, conversations, runFile, multi, b -> {});
            var scores = LocomoScorer.score(qas, run, new int[] {5, 10});
            System.out.println(settings + ": " + scores.get("all"));
            holdWhileTuning(stack);
            Map<String, Map<String, Double>> variants = new LinkedHashMap<>();
            variants.put(
                    "hybrid (k-NN + BM25), default weights"
                            + (multi ? ", multi-query" : "")
                            + " — "
                            + mainLabel,
                    scores.get("all"));
            Map<String, Map<String, Map<String, Double>>> strategies = new LinkedHashMap<>();
            strategies.put(SearchRequest.DEFAULT_STRATEGY.wireName() + " (default)", scores);
            Path scratch = Files.createTempDirectory("engram-locomo-variants-");
            for (Variant v : variantsToAsk) {
                LocomoStack.forgetRecalls(stack.config());
                var run2 =
                        ask(stack, conversations, scratch.resolve("run.jsonl"), multi, v.request());
                var scored = LocomoScorer.score(qas, run2, new int[] {5, 10});
                variants.put(v.name(), scored.get("all"));
                if (v.name().startsWith(STRATEGY_VARIANT)) {
                    strategies.put(v.name().substring(STRATEGY_VARIANT.length()), scored);
                }
                System.out.println(v.name() + ": " + variants.get(v.name()));
            }
            BenchmarkStores.deleteTree(scratch);
            return new Ingestion(scores, variants, strategies, turns, memories, ingestSeconds);
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    /**
     * With {@code -Dlocomo.hold=FILE}, keeps the stack up after the main run, for asking it by hand
     * while tuning, until FILE exists; prints where the stack answers first.
     */
    private static void holdWhileTuning(LocalStack stack) throws InterruptedException {
        String release = System.getProperty("locomo.hold");
        if (release == null) {
            return;
        }
        System.out.println(
                "holding: search API "
                        + stack.url()
                        + ", key "
                        + stack.apiKey()
                        + ", OpenSearch "
                        + stack.config().openSearch().url()
                        + "; create "
                        + release
                        + " to go on");
        while (!Files.exists(Path.of(release))) {
            Thread.sleep(500);
        }
    }

    /** One way of asking: a name and what it sets in the search request. */
    record Variant(String name, java.util.function.Consumer<ObjectNode> request) {}

    private static final java.util.function.Consumer<ObjectNode> SIMILARITY_ONLY =
            body ->
                    body.putObject("weights")
                            .put("semantic", 1.0)
                            .put("recency", 0.0)
                            .put("importance", 0.0)
                            .put("usage", 0.0)
                            .put("quality", 0.0)
                            .put("consistency", 0.0)
                            .put("decay", 0.0);

    /** Relevance first: similarity dominates, the other signals only break near-ties. */
    private static final java.util.function.Consumer<ObjectNode> RELEVANCE_FIRST =
            body ->
                    body.putObject("weights")
                            .put("semantic", 0.80)
                            .put("recency", 0.05)
                            .put("importance", 0.05)
                            .put("usage", 0.04)
                            .put("quality", 0.03)
                            .put("consistency", 0.015)
                            .put("decay", 0.015);

    /** The name of a variant that asks for a retrieval strategy starts with this. */
    static final String STRATEGY_VARIANT = "strategy ";

    /** The variants asked on the same ingestion, after the main run. */
    static final List<Variant> VARIANTS =
            List.of(
                    new Variant(STRATEGY_VARIANT + "auto", b -> b.put("strategy", "auto")),
                    new Variant(STRATEGY_VARIANT + "split", b -> b.put("strategy", "split")),
                    new Variant(STRATEGY_VARIANT + "chain", b -> b.put("strategy", "chain")),
                    new Variant(
                            STRATEGY_VARIANT + "auto, relevance-only ranking",
                            SIMILARITY_ONLY.andThen(b -> b.put("strategy", "auto"))),
                    new Variant("hybrid, relevance-only ranking", SIMILARITY_ONLY),
                    new Variant(
                            "hybrid, relevance-first weights (.80 semantic, .05 recency, .05"
                                    + " importance, .04 usage, .03 quality, .015, .015)",
                            RELEVANCE_FIRST),
                    new Variant(
                            "dense (k-NN) only, default weights", b -> b.put("retrieval", "dense")),
                    new Variant("BM25 only, default weights", b -> b.put("retrieval", "bm25")),
                    new Variant(
                            "dense (k-NN) only, relevance-only ranking",
                            SIMILARITY_ONLY.andThen(b -> b.put("retrieval", "dense"))),
                    new Variant(
                            "BM25 only, relevance-only ranking",
                            SIMILARITY_ONLY.andThen(b -> b.put("retrieval", "bm25"))),
                    new Variant(
                            "hybrid + multi-query, default weights",
                            b -> b.put("multi_query", true)),
                    new Variant(
                            "raw excerpts only (request tags = [excerpt]), hybrid, default weights",
                            b -> b.putArray("tags").add(Excerpts.TAG)),
                    new Variant(
                            "raw excerpts only, dense (k-NN) only, default weights",
                            b -> {
                                b.putArray("tags").add(Excerpts.TAG);
                                b.put("retrieval", "dense");
                            }),
                    new Variant(
                            "raw excerpts only, BM25 only, default weights",
                            b -> {
                                b.putArray("tags").add(Excerpts.TAG);
                                b.put("retrieval", "bm25");
                            }));

    private static Map<String, List<List<String>>> ask(
            LocalStack stack,
            List<JsonNode> conversations,
            Path runFile,
            boolean multi,
            java.util.function.Consumer<ObjectNode> variant)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Map<String, List<List<String>>> run = new LinkedHashMap<>();
        StringBuilder lines = new StringBuilder();
        for (JsonNode conv : conversations) {
            String user = conv.path("conversation_id").asText();
            for (JsonNode q : conv.path("qas")) {
                ObjectNode body = JSON.createObjectNode();
                body.put("user_id", user)
                        .put("query", q.path("question").asText())
                        .put("limit", 10)
                        .put("force", true)
                        .put("multi_query", multi);
                variant.accept(body);
                // -Dlocomo.request='{"limit": 50}' sets fields of every request (while tuning).
                String extra = System.getProperty("locomo.request");
                if (extra != null) {
                    body.setAll((ObjectNode) JSON.readTree(extra));
                }
                HttpResponse<String> r =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(stack.url() + "/v1/memories/search"))
                                        .header("Authorization", "Bearer " + stack.apiKey())
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                List<List<String>> ranked = new ArrayList<>();
                // -Dlocomo.dump=file.jsonl keeps every answer, strategy and hops included.
                String dump = System.getProperty("locomo.dump");
                if (dump != null) {
                    Files.writeString(
                            Path.of(dump),
                            q.path("qa_id").asText() + "\t" + r.body().replace('\n', ' ') + "\n",
                            java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                }
                ObjectNode line = JSON.createObjectNode();
                line.put("qa_id", q.path("qa_id").asText());
                ArrayNode results = line.putArray("results");
                if (r.statusCode() == 200) {
                    for (JsonNode m : JSON.readTree(r.body()).path("memories")) {
                        List<String> sources = new ArrayList<>();
                        m.path("source_turn_ids").forEach(s -> sources.add(s.asText()));
                        ranked.add(sources);
                        ObjectNode res = results.addObject();
                        res.put("memory_id", m.path("id").asText());
                        ArrayNode src = res.putArray("source_turn_ids");
                        sources.forEach(src::add);
                    }
                }
                run.put(q.path("qa_id").asText(), ranked);
                lines.append(line).append('\n');
            }
        }
        Files.createDirectories(runFile.toAbsolutePath().getParent());
        Files.writeString(runFile, lines.toString());
        return run;
    }
}
