package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.benchmarks.ingest.IngestionBenchmark;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.config.EngramConfig;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.services.LocalServices;
import io.engram.serving.ServingApp;
import io.engram.serving.recall.RecallStages;
import io.engram.store.opensearch.OpenSearchClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * Recall under load against the running serving tier: seeds memories for many users, then sends
 * search requests at a fixed rate (single query, then multi-query) and, in the same run, times the
 * bare cost of one query embedding plus one filtered k-NN search for comparison.
 *
 * <p>{@code RecallLoadBenchmark [memories] [users] [rate/s] [seconds] [out.md] [locomo.jsonl]}
 */
public final class RecallLoadBenchmark {

    static final ObjectMapper JSON = new ObjectMapper();

    private RecallLoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        MachineSamples.start();
        int memories = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        Path out = Path.of(args.length > 4 ? args[4] : "benchmarks/results/recall-load.md");
        List<String[]> lines =
                IngestionBenchmark.corpusLines(
                        Path.of(
                                args.length > 5
                                        ? args[5]
                                        : "../shared/bench/locomo/locomo_dev.jsonl"));

        Path home = Files.createTempDirectory("engram-recall-bench-");
        try (LocalServices services = BenchmarkStores.start(home, "1g", "384m")) {
            EngramConfig config =
                    BenchmarkStores.prepare(
                            home,
                            services,
                            Map.of("ENGRAM_PORT", "0", "ENGRAM_EMBEDDING_INTRA_OP_THREADS", "1"));
            OpenSearchClient openSearch =
                    OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(60));

            long seedStart = System.nanoTime();
            try (OnnxEmbedder model =
                    OnnxEmbedder.load(
                            ModelSpec.forVersion(config.embedding().version()),
                            config.embedding().modelPath(home),
                            2)) {
                seed(
                        config,
                        openSearch,
                        new CachingEmbedder(model, 50_000),
                        lines,
                        memories,
                        users);
            }
            double seedSeconds = (System.nanoTime() - seedStart) / 1e9;
            String key = apiKey(config);
            try (ServingApp serving = ServingApp.start(config);
                    LoadClient http = new LoadClient(serving.port())) {
                String url = "/v1/memories/search";
                Random random = new Random(7);
                int light = Math.max(1, rate / 4);
                Target target =
                        new Target(
                                http,
                                openSearch,
                                url,
                                key,
                                lines,
                                users,
                                random,
                                openSearchPid(openSearch),
                                serving.rowCache());
                int warmUpSeconds = warmUp(target, rate, light);
                Result singleLight = run(target, light, seconds, Mode.SINGLE);
                Result multiLight = run(target, light, seconds, Mode.MULTI);
                Result chainLight = run(target, light, seconds, Mode.CHAIN);
                Result single = run(target, rate, seconds, Mode.SINGLE);
                Result multi = run(target, rate, seconds, Mode.MULTI);
                // Twice the rate for 10 s, then the rate again at once: does it come back?
                Result overload = phase(target, 2 * rate, OVERLOAD_SECONDS, Mode.SINGLE);
                Result recovered = phase(target, rate, seconds, Mode.SINGLE);
                // The same conditions as the bare cost's: one at a time, back to back, in blocks of
                // a second alternating with the bare cost's (the host's share of the CPU changes
                // within a run).
                Result sequential;
                Bare alternated;
                try (BareLoop loop = new BareLoop(config, openSearch, lines, users, random)) {
                    phase(target, 0, LEAD_IN_SECONDS, Mode.SINGLE, loop);
                    loop.clear();
                    sequential = phase(target, 0, seconds, Mode.SINGLE, loop);
                    alternated = loop.result();
                }
                Bare bare = bareCost(config, openSearch, lines, users, 2000, 0, random);
                Bare barePaced =
                        bareCost(config, openSearch, lines, users, 1000, 1000 / light, random);
                String rowCacheFootprint = footprint(serving.rowCache());
                String report =
                        report(
                                memories,
                                users,
                                rate,
                                light,
                                seconds,
                                seedSeconds,
                                warmUpSeconds,
                                singleLight,
                                multiLight,
                                chainLight,
                                single,
                                multi,
                                overload,
                                recovered,
                                sequential,
                                alternated,
                                bare,
                                barePaced,
                                config.embedding().version(),
                                config.server().recallRowCacheSize(),
                                rowCacheFootprint);
                System.out.println(report);
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.writeString(out, report);
                writeLatencies(
                        out.resolveSibling("recall-latencies.csv"),
                        Map.of(
                                "single " + light + "/s",
                                singleLight.latenciesMicros(),
                                "multi " + light + "/s",
                                multiLight.latenciesMicros(),
                                "chain " + light + "/s",
                                chainLight.latenciesMicros(),
                                "single " + rate + "/s",
                                single.latenciesMicros(),
                                "multi " + rate + "/s",
                                multi.latenciesMicros(),
                                "bare embed+kNN",
                                bare.total(),
                                "bare embed+kNN paced",
                                barePaced.total()));
                writeRequests(
                        out.resolveSibling("recall-requests.csv"),
                        Map.of(
                                "single " + light + "/s",
                                singleLight,
                                "multi " + light + "/s",
                                multiLight,
                                "chain " + light + "/s",
                                chainLight,
                                "single " + rate + "/s",
                                single,
                                "multi " + rate + "/s",
                                multi,
                                "single " + rate + "/s after overload",
                                recovered,
                                "single one at a time",
                                sequential));
            }
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    /** Every latency sample, for the latency distribution plot of the results page. */
    static void writeLatencies(Path file, Map<String, List<Long>> series)
            throws java.io.IOException {
        StringBuilder csv = new StringBuilder("series,latency_ms\n");
        new java.util.TreeMap<>(series)
                .forEach(
                        (name, micros) ->
                                micros.forEach(
                                        m ->
                                                csv.append(name)
                                                        .append(',')
                                                        .append(String.format("%.3f", m / 1000.0))
                                                        .append('\n')));
        Files.writeString(file, csv);
    }

    /**
     * Every answered request of the measured phases in the order sent, with when it was sent and
     * the service's stage times: whether the slow ones come together (a stall) or alone.
     */
    static void writeRequests(Path file, Map<String, Result> phases) throws java.io.IOException {
        List<String> stages = new ArrayList<>();
        stages.add("total");
        for (RecallStages.Stage s : RecallStages.Stage.values()) {
            stages.add(s.label());
        }
        StringBuilder csv = new StringBuilder("phase,sent_ms,client_ms");
        stages.forEach(s -> csv.append(',').append(s).append("_ms"));
        csv.append('\n');
        new java.util.TreeMap<>(phases)
                .forEach(
                        (phase, result) -> {
                            List<Sample> bySend = new ArrayList<>(result.samples());
                            bySend.sort(java.util.Comparator.comparingLong(Sample::sentMicros));
                            for (Sample sample : bySend) {
                                csv.append(phase)
                                        .append(',')
                                        .append(String.format("%.1f", sample.sentMicros() / 1000.0))
                                        .append(',')
                                        .append(
                                                String.format(
                                                        "%.3f", sample.clientMicros() / 1000.0));
                                for (String stage : stages) {
                                    Double ms = sample.serverMs().get(stage);
                                    csv.append(',').append(ms == null ? "" : ms.toString());
                                }
                                csv.append('\n');
                            }
                        });
        Files.writeString(file, csv);
    }

    record Result(
            int rate,
            List<Long> latenciesMicros,
            int errors,
            double achievedRate,
            int degraded,
            Map<String, Integer> failures,
            List<Sample> samples,
            double cpuBusy,
            double cpuStolen,
            List<Long> gcPausesMs,
            long[] openSearchGc,
            double[] compilerShare,
            double keptShare,
            List<Long> quietMicros,
            double quietShare,
            double[] processShare) {}
}
