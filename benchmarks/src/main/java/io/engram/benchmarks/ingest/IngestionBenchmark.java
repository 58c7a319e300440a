package io.engram.benchmarks.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.benchmarks.support.KafkaProgress;
import io.engram.benchmarks.support.ProcessCpu;
import io.engram.config.EngramConfig;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.ConversationTurn;
import io.engram.extraction.ExtractionResult;
import io.engram.extraction.ExtractionWindow;
import io.engram.extraction.HeuristicExtractor;
import io.engram.jobs.extraction.ExtractionSettings;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.LocalJobs;
import io.engram.memory.MemoryIds;
import io.engram.memory.Scope;
import io.engram.services.LocalServices;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.query_dsl.Query;

/**
 * Pushes conversation turns through the real write plane — Kafka, the ExtractionJob on a Flink mini
 * cluster, PostgreSQL, OpenSearch, Redis — and prints the sustained throughput and the
 * turn-to-searchable latency of probe turns sent during the load.
 *
 * <p>{@code IngestionBenchmark [turns] [parallelism] [out.md] [locomo.jsonl]}
 */
public final class IngestionBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TURNS_PER_SESSION = 20;

    private IngestionBenchmark() {}

    public static void main(String[] args) throws Exception {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Path out = Path.of(args.length > 2 ? args[2] : "benchmarks/results/ingestion.md");
        Path corpus =
                Path.of(args.length > 3 ? args[3] : "../shared/bench/locomo/locomo_dev.jsonl");
        List<String[]> lines = corpusLines(corpus);

        Path home = Files.createTempDirectory("engram-ingest-bench-");
        try (LocalServices services = BenchmarkStores.start(home, "1g", "512m")) {
            EngramConfig config =
                    BenchmarkStores.prepare(
                            home,
                            services,
                            Map.of(
                                    "ENGRAM_EXTRACTION_PARALLELISM",
                                    String.valueOf(parallelism),
                                    "ENGRAM_FLINK_CHECKPOINT_INTERVAL_MS",
                                    "1000"));
            OpenSearchClient openSearch =
                    OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(30));

            try (LocalFlinkCluster flink = LocalFlinkCluster.start(home.resolve("flink"), 4)) {
                LocalJobs.submitExtraction(
                        flink, ExtractionSettings.from(config), home.resolve("flink/checkpoints"));
                run(config, openSearch, lines, turns, parallelism, out, services);
            }
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    private static void run(
            EngramConfig config,
            OpenSearchClient openSearch,
            List<String[]> lines,
            int turns,
            int parallelism,
            Path out,
            LocalServices services)
            throws Exception {
        String bootstrap = config.kafka().bootstrapServers();
        String topic = config.kafka().turnsTopic();
        List<Long> probeLatencies = new CopyOnWriteArrayList<>();
        try (KafkaProducer<String, byte[]> producer = warmedUp(bootstrap, topic, lines)) {

            ProcessCpu cpuBefore = ProcessCpu.now();
            long t0 = System.nanoTime();
            send(producer, topic, lines, 200, turns, "load");
            producer.flush();
            long sentNs = System.nanoTime() - t0;
            KafkaProgress.awaitCommitted(
                    bootstrap, KafkaProgress.endOffsets(bootstrap, topic), Duration.ofMinutes(30));
            long totalNs = System.nanoTime() - t0;
            ProcessCpu cpuAfter = ProcessCpu.now();
            long self = ProcessHandle.current().pid();
            double[] cpu = {
                cpuAfter.seconds(self) - cpuBefore.seconds(self),
                cpuAfter.seconds(services.openSearch().pid())
                        - cpuBefore.seconds(services.openSearch().pid()),
                cpuAfter.postgresSeconds() - cpuBefore.postgresSeconds(),
                cpuAfter.seconds(services.kafka().pid())
                        - cpuBefore.seconds(services.kafka().pid()),
                cpuAfter.seconds(services.redis().pid()) - cpuBefore.seconds(services.redis().pid())
            };
            // Freshness once the backlog is gone: one probe at a time on the idle pipeline.
            probe(producer, topic, openSearch, config.memoryIndexAlias(), probeLatencies, 20);

            double perSecond = turns / (totalNs / 1e9);
            List<Long> sorted = new ArrayList<>(probeLatencies);
            Collections.sort(sorted);
            String report =
                    String.join(
                            "\n",
                            "# Ingestion: turns to searchable memories",
                            "",
                            "Command: `"
                                    + BenchmarkStores.commandPrefix()
                                    + "benchmarks/bin/ingest "
                                    + turns
                                    + " "
                                    + parallelism
                                    + "`",
                            "",
                            "Machine: "
                                    + BenchmarkStores.machine()
                                    + ". Everything on this machine: Kafka, the Flink mini cluster (job parallelism "
                                    + parallelism
                                    + "), PostgreSQL (fsync on), OpenSearch, Redis, and the producer.",
                            "",
                            "Turns are LoCoMo dev conversation lines, "
                                    + TURNS_PER_SESSION
                                    + " per session, one user per session, heuristic extractor, embedding model "
                                    + config.embedding().version()
                                    + ".",
                            "Sustained rate = turns / time from the first send until the job's committed offsets"
                                    + " reach the end of the topic (offsets are committed only after the stores are written;"
                                    + " checkpoints every second here, against 10 s by default, so that the end is seen"
                                    + " within a second).",
                            "Freshness = after the load, one probe turn (and its session end) at a time until its memory"
                                    + " is returned by an OpenSearch search: extraction, embedding, dedup, the store's flush (at"
                                    + " most 200 ms after a batch's first change, whatever the checkpoint interval) and the 1 s"
                                    + " index refresh.",
                            "",
                            "| figure | value |",
                            "|---|---|",
                            "| turns | " + turns + " |",
                            "| producer finished after | "
                                    + String.format("%.1f s", sentNs / 1e9)
                                    + " |",
                            "| all turns stored after | "
                                    + String.format("%.1f s", totalNs / 1e9)
                                    + " |",
                            "| sustained throughput | "
                                    + String.format("%,.0f turns/s", perSecond)
                                    + " |",
                            "| CPU per turn: this JVM (Flink job, embedding, producer) | "
                                    + perTurn(cpu[0], turns)
                                    + " |",
                            "| CPU per turn: OpenSearch | " + perTurn(cpu[1], turns) + " |",
                            "| CPU per turn: PostgreSQL | " + perTurn(cpu[2], turns) + " |",
                            "| CPU per turn: Kafka broker | " + perTurn(cpu[3], turns) + " |",
                            "| CPU per turn: Redis | " + perTurn(cpu[4], turns) + " |",
                            "| CPU per turn: all of these | "
                                    + perTurn(cpu[0] + cpu[1] + cpu[2] + cpu[3] + cpu[4], turns)
                                    + " |",
                            "| probes | " + sorted.size() + " |",
                            "| turn-to-searchable p50 | " + pct(sorted, 0.50) + " ms |",
                            "| turn-to-searchable p95 | " + pct(sorted, 0.95) + " ms |",
                            "");
            System.out.println(report);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report);
        }
    }

    /** Milliseconds of CPU per turn, from CPU seconds over {@code turns}. */
    private static String perTurn(double cpuSeconds, int turns) {
        return Double.isNaN(cpuSeconds)
                ? "n/a"
                : String.format("%.2f ms", cpuSeconds * 1000 / turns);
    }

    /**
     * A producer for the load, after a warm-up of a few sessions (stored before this returns) so
     * the model and the operators are loaded before timing.
     */
    static KafkaProducer<String, byte[]> warmedUp(
            String bootstrap, String topic, List<String[]> lines) throws Exception {
        KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrap,
                                ProducerConfig.LINGER_MS_CONFIG,
                                5,
                                ProducerConfig.BATCH_SIZE_CONFIG,
                                256 * 1024,
                                ProducerConfig.ACKS_CONFIG,
                                "1"),
                        new StringSerializer(),
                        new ByteArraySerializer());
        try {
            send(producer, topic, lines, 0, 200, "warmup");
            producer.flush();
            KafkaProgress.awaitCommitted(
                    bootstrap, KafkaProgress.endOffsets(bootstrap, topic), Duration.ofMinutes(5));
            return producer;
        } catch (Exception | Error e) {
            producer.close();
            throw e;
        }
    }

    /** Turns {@code from} .. {@code from + count} of the corpus, a session end every 20 turns. */
    static void send(
            KafkaProducer<String, byte[]> producer,
            String topic,
            List<String[]> lines,
            int from,
            int count,
            String tag) {
        Instant base = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < count; i++) {
            int n = from + i;
            int session = n / TURNS_PER_SESSION;
            String user = tag + "-u" + session;
            String sessionId = "s" + session;
            String[] line = lines.get(n % lines.size());
            TurnEvent turn =
                    new TurnEvent(
                            "e" + n,
                            "bench",
                            "default",
                            "prod",
                            user,
                            sessionId,
                            "t" + n,
                            Role.USER,
                            Optional.of(line[0]),
                            line[1],
                            base.plusSeconds(n));
            producer.send(new ProducerRecord<>(topic, turn.key(), EventCodec.encode(turn)));
            if ((n + 1) % TURNS_PER_SESSION == 0 || i == count - 1) {
                ChatEvent end =
                        new SessionEndEvent(
                                "end" + n,
                                "bench",
                                "default",
                                "prod",
                                user,
                                sessionId,
                                base.plusSeconds(n + 1));
                producer.send(new ProducerRecord<>(topic, end.key(), EventCodec.encode(end)));
            }
        }
    }

    /**
     * {@code count} times: one turn of a fresh user, then the time until its memory is searchable.
     */
    private static void probe(
            KafkaProducer<String, byte[]> producer,
            String topic,
            OpenSearchClient openSearch,
            String alias,
            List<Long> latencies,
            int count) {
        HeuristicExtractor extractor = new HeuristicExtractor();
        int n = 0;
        while (n < count && !Thread.currentThread().isInterrupted()) {
            n++;
            Scope scope = new Scope("bench", "default", "prod", "probe-" + n);
            String text = "My budget for the Lisbon trip is $" + n + ",000.";
            Instant ts = Instant.now();
            TurnEvent turn =
                    new TurnEvent(
                            "p" + n,
                            "bench",
                            "default",
                            "prod",
                            scope.userId(),
                            "ps" + n,
                            "pt" + n,
                            Role.USER,
                            Optional.of("Probe"),
                            text,
                            ts);
            ExtractionResult r =
                    extractor.extract(
                            new ExtractionWindow(
                                    "ps" + n,
                                    List.of(),
                                    List.of(
                                            new ConversationTurn(
                                                    "pt" + n,
                                                    Role.USER,
                                                    Optional.of("Probe"),
                                                    text,
                                                    ts)),
                                    true));
            CandidateFact fact = ((ExtractionResult.Facts) r).facts().get(0);
            UUID id = MemoryIds.fromConversation(scope, fact.sourceTurnIds(), fact.content());
            long start = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, turn.key(), EventCodec.encode(turn)));
            producer.send(
                    new ProducerRecord<>(
                            topic,
                            turn.key(),
                            EventCodec.encode(
                                    new SessionEndEvent(
                                            "pe" + n,
                                            "bench",
                                            "default",
                                            "prod",
                                            scope.userId(),
                                            "ps" + n,
                                            ts.plusSeconds(1)))));
            producer.flush();
            Query query = Query.of(q -> q.ids(i -> i.values(id.toString())));
            long deadline = start + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                long found =
                        OpenSearchException.call(
                                "searching the probe",
                                () ->
                                        openSearch
                                                .count(
                                                        c ->
                                                                c.index(alias)
                                                                        .routing(scope.routing())
                                                                        .query(query))
                                                .count());
                if (found > 0) {
                    latencies.add((System.nanoTime() - start) / 1_000_000);
                    break;
                }
                if (!pause(20)) {
                    return;
                }
            }
            if (!pause(500)) {
                return;
            }
        }
    }

    private static boolean pause(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return "n/a";
        }
        return String.valueOf(
                sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)));
    }

    /** (speaker, text) lines of a LoCoMo-format file, or a small built-in set when it is absent. */
    public static List<String[]> corpusLines(Path file) throws Exception {
        List<String[]> out = new ArrayList<>();
        if (Files.exists(file)) {
            try (BufferedReader reader = Files.newBufferedReader(file)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    for (JsonNode t : JSON.readTree(line).path("turns")) {
                        out.add(new String[] {t.path("speaker").asText(), t.path("text").asText()});
                    }
                }
            }
        }
        if (out.isEmpty()) {
            out.add(new String[] {"Alice", "My budget for the Hawaii trip is $10,000."});
            out.add(new String[] {"Bob", "I adopted a beagle named Max last spring."});
            out.add(new String[] {"Alice", "We are flying to Maui on June 5."});
            out.add(new String[] {"Bob", "My sister Kate is a nurse in Denver."});
        }
        return out;
    }
}
