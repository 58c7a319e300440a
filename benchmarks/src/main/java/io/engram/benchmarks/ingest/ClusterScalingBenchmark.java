package io.engram.benchmarks.ingest;

import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.benchmarks.support.KafkaProgress;
import io.engram.benchmarks.support.ProcessCpu;
import io.engram.config.EngramConfig;
import io.engram.jobs.extraction.ExtractionJob;
import io.engram.services.FlinkCluster;
import io.engram.services.FlinkRest;
import io.engram.services.LocalServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The ExtractionJob on a standalone Flink cluster (a JobManager and one TaskManager per unit of
 * parallelism, each a JVM of its own with one slot), submitted through the REST API as in
 * production: sustained turns/s at parallelism 1 and 2 on fresh services, and the CPU the Flink
 * processes spend per turn.
 *
 * <p>{@code ClusterScalingBenchmark [turns] [out.md] [locomo.jsonl]}
 */
public final class ClusterScalingBenchmark {

    private ClusterScalingBenchmark() {}

    /** One run's figures. */
    private record Result(int parallelism, double turnsPerSecond, double flinkCpuMsPerTurn) {}

    public static void main(String[] args) throws Exception {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Path out = Path.of(args.length > 1 ? args[1] : "benchmarks/results/flink-cluster.md");
        Path corpus =
                Path.of(args.length > 2 ? args[2] : "../shared/bench/locomo/locomo_dev.jsonl");
        List<String[]> lines = IngestionBenchmark.corpusLines(corpus);
        Path jar = shadedJar();
        List<Result> results = new ArrayList<>();
        for (int parallelism : List.of(1, 2)) {
            results.add(run(parallelism, turns, lines, jar));
        }
        String report = report(turns, results);
        System.out.println(report);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
    }

    private static Result run(int parallelism, int turns, List<String[]> lines, Path jar)
            throws Exception {
        Path home = Files.createTempDirectory("engram-cluster-bench-");
        try (LocalServices services = BenchmarkStores.start(home, "1g", "512m")) {
            Map<String, String> settings =
                    Map.of(
                            "ENGRAM_EXTRACTION_PARALLELISM",
                            String.valueOf(parallelism),
                            "ENGRAM_FLINK_CHECKPOINT_INTERVAL_MS",
                            "1000");
            EngramConfig config = BenchmarkStores.prepare(home, services, settings);
            // The JobManager runs the job's main, which reads its settings from the environment,
            // as a Flink pod's would be given them.
            Map<String, String> env = new HashMap<>(BenchmarkStores.callerSettings());
            env.putAll(settings);
            env.put("ENGRAM_HOME", home.toString());
            env.put("ENGRAM_POSTGRES_URL", config.postgres().url());
            env.put("ENGRAM_POSTGRES_USER", config.postgres().user());
            env.put("ENGRAM_POSTGRES_PASSWORD", config.postgres().password());
            env.put("ENGRAM_KAFKA_BOOTSTRAP_SERVERS", config.kafka().bootstrapServers());
            env.put("ENGRAM_OPENSEARCH_URL", config.openSearch().url());
            env.put("ENGRAM_REDIS_URL", config.redis().url());
            try (FlinkCluster flink =
                    FlinkCluster.start(
                            home.resolve("flink"), new FlinkCluster.Spec(parallelism, 1, env))) {
                FlinkRest rest = flink.rest();
                String job =
                        rest.runJar(
                                rest.uploadJar(jar),
                                ExtractionJob.class.getName(),
                                List.of(),
                                parallelism,
                                Optional.empty());
                rest.awaitState(job, "RUNNING", Duration.ofSeconds(60));
                return load(config, lines, turns, parallelism, flink.pids());
            }
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    private static Result load(
            EngramConfig config, List<String[]> lines, int turns, int parallelism, List<Long> pids)
            throws Exception {
        String bootstrap = config.kafka().bootstrapServers();
        String topic = config.kafka().turnsTopic();
        try (KafkaProducer<String, byte[]> producer =
                IngestionBenchmark.warmedUp(bootstrap, topic, lines)) {
            ProcessCpu before = ProcessCpu.now();
            long t0 = System.nanoTime();
            IngestionBenchmark.send(producer, topic, lines, 200, turns, "load");
            producer.flush();
            KafkaProgress.awaitCommitted(
                    bootstrap, KafkaProgress.endOffsets(bootstrap, topic), Duration.ofMinutes(30));
            double seconds = (System.nanoTime() - t0) / 1e9;
            ProcessCpu after = ProcessCpu.now();
            double cpu = 0;
            for (long pid : pids) {
                cpu += after.seconds(pid) - before.seconds(pid);
            }
            return new Result(parallelism, turns / seconds, cpu * 1000 / turns);
        }
    }

    private static String report(int turns, List<Result> results) {
        Result one = results.get(0);
        Result two = results.get(1);
        List<String> rows = new ArrayList<>();
        for (Result r : results) {
            rows.add(
                    String.format(
                            "| %d | %d | %,.0f | %.2f ms |",
                            r.parallelism(),
                            r.parallelism(),
                            r.turnsPerSecond(),
                            r.flinkCpuMsPerTurn()));
        }
        return String.join(
                "\n",
                "# The ExtractionJob on a standalone Flink cluster",
                "",
                "Command: `"
                        + BenchmarkStores.commandPrefix()
                        + "benchmarks/bin/flink-cluster "
                        + turns
                        + "`",
                "",
                "Machine: "
                        + BenchmarkStores.machine()
                        + ". A JobManager and one TaskManager JVM (one slot) per unit of parallelism,"
                        + " started from Flink's Maven artifacts; the shaded job jar uploaded and run"
                        + " through the REST API; Kafka, PostgreSQL, OpenSearch and Redis on the same"
                        + " machine, fresh for each run.",
                "",
                "Sustained rate = "
                        + turns
                        + " LoCoMo dev turns (20 per session, heuristic extractor) / time from the"
                        + " first send until the job's committed offsets reach the end of the topic.",
                "Flink CPU = CPU time of the JobManager and TaskManager processes over the same span.",
                "",
                "| parallelism | TaskManagers | turns/s | Flink CPU per turn |",
                "|---|---|---|---|",
                String.join("\n", rows),
                "",
                String.format(
                        "Ratio, parallelism 2 to 1: **%.2f×**.",
                        two.turnsPerSecond() / one.turnsPerSecond()),
                "",
                String.format(
                        "On paper: the job's processes (JobManager and TaskManagers) spent %.2f ms"
                                + " of CPU per turn with one TaskManager and %.2f ms with two (the"
                                + " shuffle between JVMs), so 1,000 turns/s keep %.1f-%.1f cores busy;"
                                + " with headroom for catch-up after an outage (x1.5), about %.0f-%.0f"
                                + " cores per 1,000 turns/s. The stores' CPU comes on top (see"
                                + " ingestion.md).",
                        one.flinkCpuMsPerTurn(),
                        two.flinkCpuMsPerTurn(),
                        one.flinkCpuMsPerTurn(),
                        two.flinkCpuMsPerTurn(),
                        Math.ceil(one.flinkCpuMsPerTurn() * 1.5),
                        Math.ceil(two.flinkCpuMsPerTurn() * 1.5)),
                "");
    }

    private static Path shadedJar() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("jobs/target"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-flink.jar"))
                    .findFirst()
                    .orElseThrow(
                            () ->
                                    new IllegalStateException(
                                            "no jobs/target/*-flink.jar: run ./mvnw -pl jobs package"))
                    .toAbsolutePath();
        }
    }
}
