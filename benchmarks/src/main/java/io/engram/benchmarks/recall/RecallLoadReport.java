package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.serving.recall.RecallStages;
import io.engram.serving.recall.RowCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The report of a recall load run: the markdown tables of its phases, times and footprint. */
final class RecallLoadReport {

    private RecallLoadReport() {}

    static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1))
                / 1000.0;
    }

    static String bareRow(String pacing, Bare bare) {
        List<Long> micros = bare.total();
        return "| bare embedding + filtered k-NN (sequential, in-process, "
                + pacing
                + ") | — | "
                + micros.size()
                + " | — | "
                + String.format("%.2f", pct(micros, 0.5))
                + " | "
                + String.format("%.2f", pct(micros, 0.9))
                + " | "
                + String.format("%.2f", pct(micros, 0.99))
                + " | — | — | — | — | — | — | — | — | — |";
    }

    static String ratio(Result recall, Bare bare) {
        return String.format("%.2f", pct(recall.latenciesMicros(), 0.5) / pct(bare.total(), 0.5));
    }

    static String report(
            int memories,
            int users,
            int rate,
            int light,
            int seconds,
            double seedSeconds,
            int warmUpSeconds,
            Result singleLight,
            Result multiLight,
            Result chainLight,
            Result single,
            Result multi,
            Result overload,
            Result recovered,
            Result sequential,
            Bare alternated,
            Bare bare,
            Bare barePaced,
            String embeddingVersion,
            int rowCacheSize,
            String rowCacheFootprint) {
        return String.join(
                "\n",
                "# Recall under load",
                "",
                "Command: `"
                        + BenchmarkStores.commandPrefix()
                        + "benchmarks/bin/recall-load "
                        + memories
                        + " "
                        + users
                        + " "
                        + rate
                        + " "
                        + seconds
                        + "`",
                "",
                "Machine: "
                        + BenchmarkStores.machine()
                        + ". PostgreSQL, OpenSearch (one shard), Redis, Kafka, the serving tier and the load"
                        + " generator all share this machine, a virtual machine whose host takes"
                        + " some of its CPU time for other guests (\"stolen\" below): the same"
                        + " code measures up to twice as slow from one run to the next.",
                "",
                memories
                        + " memories over "
                        + users
                        + " users (LoCoMo dev lines), embedding model "
                        + embeddingVersion
                        + ", seeded in "
                        + String.format("%.0f s", seedSeconds)
                        + ". Requests at a fixed rate of "
                        + rate
                        + "/s for "
                        + seconds
                        + " s each, random user, unique query text"
                        + " (so the result cache does not help). After a recall that read PostgreSQL,"
                        + " the service reads the user's active memories into its row cache"
                        + " (server.recall_row_cache_size, here "
                        + rowCacheSize
                        + " memories), off the response path; the user's recalls in the next 60 s hydrate"
                        + " from it while the user's memories are unchanged: the last column says how"
                        + " many of a phase's recalls did. Latency is measured by the client, end to end over HTTP,"
                        + " sent from Vert.x's HTTP client in the same JVM as the service. Before measuring, a warm-up of "
                        + warmUpSeconds
                        + " s (single queries at "
                        + rate
                        + "/s, multi-query at "
                        + light
                        + "/s, in turn, until the JIT compilers of the service's JVM and of OpenSearch's"
                        + " use less than "
                        + Math.round(100 * QUIET_COMPILERS)
                        + "% of a core, or at most "
                        + (50 + 2 * SETTLE_ROUND_SECONDS * MAX_SETTLE_ROUNDS)
                        + " s); each measured phase starts with "
                        + LEAD_IN_SECONDS
                        + " s at its own rate and mode that are not counted. After the measured phases,"
                        + " single queries at twice the rate for "
                        + OVERLOAD_SECONDS
                        + " s, then at the rate again straight away: whether the service comes back"
                        + " from an overload or stays behind. Last, single queries one at a time, each"
                        + " sent when the previous one is answered, for a second, then the bare cost (a"
                        + " query embedding + filtered k-NN search in this JVM) back to back for a"
                        + " second, and so on: the host's share of the CPU, which changes within a"
                        + " run, is then the same for both; then the bare cost alone, back to back"
                        + " and paced. A phase's clock (achieved rate, CPU, compiling) stops when every"
                        + " request is answered or those left have waited "
                        + STUCK_MS / 1000
                        + " s: a request the load generator's client never completes (rare) counts as"
                        + " an error when its 60 s timeout fires, without stretching the phase."
                        + " The host's share of the CPU is read from /proc/stat every 100 ms; the"
                        + " last column keeps the answered requests sent in the half-seconds in which"
                        + " it took under 5%: the same phase without the host's bursts.",
                "",
                "| mode | offered rate | requests | achieved rate | p50 ms | p90 ms | p99 ms | errors | degraded | machine CPU busy (of it stolen by the host) | JIT compiling, service / OpenSearch (% of a core) | service GC pauses: n / longest ms | OpenSearch GC: n / total ms | recalls hydrated from the row cache | p50 / p99 ms of the requests sent in the half-seconds the host took under 5% of the CPU (their share of the phase) | CPU, % of a core: this JVM (service and load generator) / OpenSearch / PostgreSQL |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
                row("single-query recall", singleLight),
                row("multi-query recall (3 queries)", multiLight),
                row("chain recall (strategy chain, up to 3 hops)", chainLight),
                row("single-query recall", single),
                row("multi-query recall (3 queries)", multi),
                row("single-query recall, overload (twice the rate)", overload),
                row("single-query recall right after the overload, no lead-in", recovered),
                row(
                        "single-query recall, one at a time, back to back, in 1 s blocks"
                                + " alternating with the bare cost's",
                        sequential),
                bareRow("back to back, in the 1 s blocks between the recalls'", alternated),
                bareRow("back to back", bare),
                bareRow("one every " + 1000 / light + " ms", barePaced),
                "",
                "Ratio of single-query recall p50 to the bare cost p50, both one at a time back to"
                        + " back, in alternating blocks of a second (the same conditions): "
                        + ratio(sequential, alternated)
                        + ". Against the bare cost back to back (timed after the recalls): "
                        + ratio(sequential, bare)
                        + " one at a time, "
                        + ratio(singleLight, bare)
                        + " at "
                        + light
                        + "/s, "
                        + ratio(single, bare)
                        + " at "
                        + rate
                        + "/s; paced: "
                        + ratio(singleLight, barePaced)
                        + " at "
                        + light
                        + "/s, "
                        + ratio(single, barePaced)
                        + " at "
                        + rate
                        + "/s. Of the bare cost, the embedding alone: p50 "
                        + String.format("%.2f", pct(bare.embedding(), 0.5))
                        + " ms back to back, "
                        + String.format("%.2f", pct(barePaced.embedding(), 0.5))
                        + " ms paced. The same embedding costs more after the model has been"
                        + " idle; the paced figure is what a request arriving alone meets.",
                "",
                "Where the time went (ms, means over the requests of a phase and over its slowest 1%, from"
                        + " each answer's `Server-Timing` header). `outside` is the client's latency minus the"
                        + " service's total: HTTP both ways, waiting for an event loop, the load generator. The"
                        + " cache lookup and the query embedding run at the same time.",
                "",
                "| phase | requests | client | service total | outside | "
                        + String.join(
                                " | ",
                                java.util.Arrays.stream(RecallStages.Stage.values())
                                        .map(RecallStages.Stage::label)
                                        .toList())
                        + " |",
                "|---|---|---|---|---|" + "---|".repeat(RecallStages.Stage.values().length),
                timeRows("single " + light + "/s", singleLight),
                timeRows("multi " + light + "/s", multiLight),
                timeRows("chain " + light + "/s", chainLight),
                timeRows("single " + rate + "/s", single),
                timeRows("multi " + rate + "/s", multi),
                timeRows("single " + 2 * rate + "/s (overload)", overload),
                timeRows("single " + rate + "/s after the overload", recovered),
                timeRows("single, one at a time", sequential),
                "",
                "Failures by kind: "
                        + single.failures()
                        + " (single, "
                        + rate
                        + "/s), "
                        + multi.failures()
                        + " (multi, "
                        + rate
                        + "/s), "
                        + singleLight.failures()
                        + " / "
                        + multiLight.failures()
                        + " ("
                        + light
                        + "/s), "
                        + overload.failures()
                        + " (overload), "
                        + recovered.failures()
                        + " (after it), "
                        + sequential.failures()
                        + " (one at a time).",
                "",
                rowCacheFootprint,
                "");
    }

    /** A phase's mean times over all its requests and over its slowest 1%. */
    static String timeRows(String phase, Result r) {
        List<Sample> bySlowness = new ArrayList<>(r.samples());
        bySlowness.sort(java.util.Comparator.comparingLong(Sample::clientMicros));
        int slowest = Math.max(1, bySlowness.size() / 100);
        return timeRow(phase + ", all", bySlowness)
                + "\n"
                + timeRow(
                        phase + ", slowest 1%",
                        bySlowness.subList(bySlowness.size() - slowest, bySlowness.size()));
    }

    static String timeRow(String name, List<Sample> samples) {
        StringBuilder row = new StringBuilder("| ").append(name).append(" | ");
        row.append(samples.size());
        row.append(" | ").append(mean(samples, s -> s.clientMicros() / 1000.0));
        row.append(" | ").append(mean(samples, s -> s.serverMs().get("total")));
        row.append(" | ")
                .append(
                        mean(
                                samples,
                                s ->
                                        s.serverMs().containsKey("total")
                                                ? s.clientMicros() / 1000.0
                                                        - s.serverMs().get("total")
                                                : null));
        for (RecallStages.Stage stage : RecallStages.Stage.values()) {
            row.append(" | ").append(mean(samples, s -> s.serverMs().get(stage.label())));
        }
        return row.append(" |").toString();
    }

    /**
     * What the row cache holds at the end and the heap it takes: the heap in use after a full
     * collection, before and after dropping its memories.
     */
    static String footprint(Optional<RowCache> rows) {
        if (rows.isEmpty()) {
            return "The row cache was off.";
        }
        long held = rows.get().rows();
        long before = heapAfterCollection();
        rows.get().forget(s -> true);
        long after = heapAfterCollection();
        return String.format(
                "At the end the row cache held %d memories: %.1f MB of heap (%.0f bytes each; the"
                        + " heap in use after a full collection, before and after dropping them).",
                held, (before - after) / 1e6, held == 0 ? 0.0 : (double) (before - after) / held);
    }

    static long heapAfterCollection() {
        System.gc();
        System.gc();
        return java.lang.management.ManagementFactory.getMemoryMXBean()
                .getHeapMemoryUsage()
                .getUsed();
    }

    /** The mean of a value over the samples that have it, or — when none has. */
    static String mean(List<Sample> samples, java.util.function.Function<Sample, Double> value) {
        double sum = 0;
        int n = 0;
        for (Sample s : samples) {
            Double v = value.apply(s);
            if (v != null) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? "—" : String.format("%.2f", sum / n);
    }

    static String row(String name, Result r) {
        return "| "
                + name
                + " | "
                + (r.rate() == 0 ? "—" : r.rate() + "/s")
                + " | "
                + r.latenciesMicros().size()
                + " | "
                + String.format("%.0f/s", r.achievedRate())
                + " | "
                + String.format("%.2f", pct(r.latenciesMicros(), 0.5))
                + " | "
                + String.format("%.2f", pct(r.latenciesMicros(), 0.9))
                + " | "
                + String.format("%.2f", pct(r.latenciesMicros(), 0.99))
                + " | "
                + r.errors()
                + " | "
                + r.degraded()
                + " | "
                + String.format("%.0f%% (%.0f%%)", 100 * r.cpuBusy(), 100 * r.cpuStolen())
                + " | "
                + String.format(
                        "%.0f / %.0f", 100 * r.compilerShare()[0], 100 * r.compilerShare()[1])
                + " | "
                + r.gcPausesMs().size()
                + " / "
                + r.gcPausesMs().stream().mapToLong(Long::longValue).max().orElse(0)
                + " | "
                + r.openSearchGc()[0]
                + " / "
                + r.openSearchGc()[1]
                + " | "
                + (Double.isNaN(r.keptShare()) ? "—" : String.format("%.0f%%", 100 * r.keptShare()))
                + " | "
                + (r.quietMicros().isEmpty()
                        ? "— (0%)"
                        : String.format(
                                "%.2f / %.2f (%.0f%%)",
                                pct(r.quietMicros(), 0.5),
                                pct(r.quietMicros(), 0.99),
                                100 * r.quietShare()))
                + " | "
                + String.format(
                        "%.0f / %.0f / %.0f",
                        100 * r.processShare()[0],
                        100 * r.processShare()[1],
                        100 * r.processShare()[2])
                + " |";
    }
}
