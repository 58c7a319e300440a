package io.engram.benchmarks.locomo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.benchmarks.support.KafkaProgress;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.extraction.Excerpts;
import io.engram.local.LocalStack;
import java.io.BufferedReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

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
        String text = render(bench, main, variants, multi);
        System.out.println(text);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
    }

    /** One ingestion: its scores, the variants asked on it, its size and how long it took. */
    record Ingestion(
            Map<String, Map<String, Double>> scores,
            Map<String, Map<String, Double>> variants,
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
            int turns = ingest(stack.config(), conversations);
            awaitIngested(stack.config());
            double ingestSeconds = (System.nanoTime() - t0) / 1e9;
            long[] memories = activeMemories(stack.config());
            var run = ask(stack, conversations, runFile, multi, b -> {});
            var scores = LocomoScorer.score(qas, run, new int[] {5, 10});
            System.out.println(settings + ": " + scores.get("all"));
            Map<String, Map<String, Double>> variants = new LinkedHashMap<>();
            variants.put(
                    "hybrid (k-NN + BM25), default weights"
                            + (multi ? ", multi-query" : "")
                            + " — "
                            + mainLabel,
                    scores.get("all"));
            Path scratch = Files.createTempDirectory("engram-locomo-variants-");
            for (Variant v : variantsToAsk) {
                forgetRecalls(stack.config());
                var run2 =
                        ask(stack, conversations, scratch.resolve("run.jsonl"), multi, v.request());
                variants.put(v.name(), LocomoScorer.score(qas, run2, new int[] {5, 10}).get("all"));
                System.out.println(v.name() + ": " + variants.get(v.name()));
            }
            BenchmarkStores.deleteTree(scratch);
            return new Ingestion(scores, variants, turns, memories, ingestSeconds);
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    /** Active memories: all of them, and the excerpts among them. */
    private static long[] activeMemories(EngramConfig c) throws java.sql.SQLException {
        try (java.sql.Connection conn = connect(c);
                var rs =
                        conn.createStatement()
                                .executeQuery(
                                        "select count(*), count(*) filter (where '"
                                                + Excerpts.TAG
                                                + "' = any(tags)) from memories where status = 'active'")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private static java.sql.Connection connect(EngramConfig c) throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(
                c.postgres().url(), c.postgres().user(), c.postgres().password());
    }

    /**
     * Undoes what the recall bookkeeping of the previous run wrote (usage counts, last access,
     * recall events), once it has been flushed: otherwise the recency and usage signals of the
     * default weights favour what the previous variant returned for the same questions.
     */
    private static void forgetRecalls(EngramConfig c) throws Exception {
        try (java.sql.Connection conn = connect(c)) {
            long last = -1;
            long now = recallEvents(conn);
            while (now != last) {
                Thread.sleep(2000); // the bookkeeper flushes in batches, about every second
                last = now;
                now = recallEvents(conn);
            }
            conn.createStatement()
                    .executeUpdate(
                            "update memories set usage_count = 0, last_accessed_at = null"
                                    + " where usage_count > 0 or last_accessed_at is not null");
            conn.createStatement().executeUpdate("delete from memory_events where kind = 'recall'");
        }
    }

    private static long recallEvents(java.sql.Connection conn) throws java.sql.SQLException {
        try (var rs =
                conn.createStatement()
                        .executeQuery("select count(*) from memory_events where kind = 'recall'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int ingest(EngramConfig c, List<JsonNode> conversations) throws Exception {
        int n = 0;
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                c.kafka().bootstrapServers(),
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (JsonNode conv : conversations) {
                String user = conv.path("conversation_id").asText();
                int lastSession = -1;
                Instant last = null;
                for (JsonNode t : conv.path("turns")) {
                    int session = t.path("session").asInt();
                    if (lastSession != -1 && session != lastSession) {
                        send(producer, c, sessionEnd(user, lastSession, last));
                    }
                    lastSession = session;
                    // Turns of a session share its timestamp; a second per turn keeps their order.
                    Instant ts =
                            LocalDateTime.parse(t.path("timestamp").asText())
                                    .toInstant(ZoneOffset.UTC)
                                    .plusSeconds(t.path("turn_in_session").asInt());
                    last = ts;
                    String text = t.path("text").asText();
                    if (t.hasNonNull("image_caption")) {
                        text = text + " [shares a photo: " + t.path("image_caption").asText() + "]";
                    }
                    send(
                            producer,
                            c,
                            new TurnEvent(
                                    "e-" + user + "-" + t.path("turn_id").asText(),
                                    "local",
                                    "default",
                                    "development",
                                    user,
                                    "s" + session,
                                    t.path("turn_id").asText(),
                                    Role.USER,
                                    Optional.of(t.path("speaker").asText()),
                                    text,
                                    ts));
                    n++;
                }
                if (lastSession != -1) {
                    send(producer, c, sessionEnd(user, lastSession, last));
                }
            }
            producer.flush();
        }
        return n;
    }

    private static SessionEndEvent sessionEnd(String user, int session, Instant ts) {
        return new SessionEndEvent(
                "end-" + user + "-" + session,
                "local",
                "default",
                "development",
                user,
                "s" + session,
                ts);
    }

    private static void send(
            KafkaProducer<String, byte[]> producer, EngramConfig c, io.engram.events.ChatEvent e) {
        producer.send(new ProducerRecord<>(c.kafka().turnsTopic(), e.key(), EventCodec.encode(e)));
    }

    private static void awaitIngested(EngramConfig c) throws Exception {
        String bootstrap = c.kafka().bootstrapServers();
        KafkaProgress.awaitCommitted(
                bootstrap,
                KafkaProgress.endOffsets(bootstrap, c.kafka().turnsTopic()),
                Duration.ofMinutes(30));
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

    /** The variants asked on the same ingestion, after the main run. */
    static final List<Variant> VARIANTS =
            List.of(
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

    private static String render(
            Path bench, Ingestion main, Map<String, Map<String, Double>> variants, boolean multi) {
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
        out.append("\nThe run file is `benchmarks/results/locomo-run.jsonl`; `python3")
                .append(" ../shared/bench/locomo/score_run.py ")
                .append(bench)
                .append(" benchmarks/results/locomo-run.jsonl 5,10` scores it the same way.\n\n")
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
