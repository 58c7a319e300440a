package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.TransportBenchmark.BLOCK_SECONDS;
import static io.engram.benchmarks.recall.TransportRequests.BM25_HITS;
import static io.engram.benchmarks.recall.TransportRequests.KNN_WINDOW;

import io.engram.benchmarks.support.BenchmarkStores;
import java.util.ArrayList;
import java.util.List;

/** The page {@link TransportBenchmark} writes. */
final class TransportReport {

    private TransportReport() {}

    /** Latencies (ns) and CPU time (ns) of one client in one mode, summed over its blocks. */
    static final class Tally {
        final List<Long> nanos = new ArrayList<>();
        long cpuNanos;
        long wallNanos;
        int errors;

        void add(Tally block) {
            nanos.addAll(block.nanos);
            cpuNanos += block.cpuNanos;
            wallNanos += block.wallNanos;
            errors += block.errors;
        }
    }

    static String render(
            List<String> clients,
            Tally[] paced,
            Tally[] serial,
            int documents,
            int users,
            int rate,
            int seconds,
            double seedSeconds) {
        StringBuilder out = new StringBuilder();
        out.append("# OpenSearch transports for the serving tier's recall search\n\n")
                .append("Command: `benchmarks/bin/opensearch-transports ")
                .append(documents)
                .append(' ')
                .append(users)
                .append(' ')
                .append(rate)
                .append(' ')
                .append(seconds)
                .append("`\n\nMachine: ")
                .append(BenchmarkStores.machine())
                .append(". ")
                .append(documents)
                .append(" documents over ")
                .append(users)
                .append(" users (LoCoMo dev lines, random unit vectors), seeded in ")
                .append(Math.round(seedSeconds))
                .append(
                        " s and merged to one segment; one OpenSearch node on this machine. The"
                                + " recall's multi-search (a"
                                + " filtered k-NN leg of ")
                .append(KNN_WINDOW)
                .append(" and a BM25 leg of ")
                .append(BM25_HITS)
                .append(
                        ", ids and scores only, with the same `filter_path`) through"
                                + " opensearch-java's `OpenSearchAsyncClient`, sent from one"
                                + " Vert.x event loop; latency runs from the moment a call was"
                                + " due to its answer on that event loop (the Apache transport"
                                + " completes on its own I/O threads, and the answer is handed"
                                + " back). The two transports alternate in blocks of ")
                .append(BLOCK_SECONDS)
                .append(
                        " s at the fixed rate, then of 1 s one call at a time, after a warm-up"
                                + " of 20 s each. CPU is this JVM's (both clients and the load"
                                + " generator), per call.\n\n")
                .append(
                        "| transport | mode | calls | p50 ms | p90 ms | p99 ms | p99.9 ms | errors"
                                + " | JVM CPU µs per call | JVM CPU, % of a core |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < clients.size(); i++) {
            row(out, clients.get(i), rate + "/s", paced[i]);
        }
        for (int i = 0; i < clients.size(); i++) {
            row(out, clients.get(i), "one at a time", serial[i]);
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String name, String mode, Tally t) {
        List<Long> sorted = new ArrayList<>(t.nanos);
        sorted.sort(null);
        out.append("| ")
                .append(name)
                .append(" | ")
                .append(mode)
                .append(" | ")
                .append(sorted.size())
                .append(" | ")
                .append(ms(sorted, 0.50))
                .append(" | ")
                .append(ms(sorted, 0.90))
                .append(" | ")
                .append(ms(sorted, 0.99))
                .append(" | ")
                .append(ms(sorted, 0.999))
                .append(" | ")
                .append(t.errors)
                .append(" | ")
                .append(Math.round(t.cpuNanos / 1e3 / Math.max(1, sorted.size())))
                .append(" | ")
                .append(Math.round(100.0 * t.cpuNanos / Math.max(1, t.wallNanos)))
                .append(" |\n");
    }

    private static String ms(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return "—";
        }
        int i = (int) Math.min(sorted.size() - 1, Math.ceil(q * sorted.size()) - 1);
        return String.format("%.2f", sorted.get(Math.max(0, i)) / 1e6);
    }
}
