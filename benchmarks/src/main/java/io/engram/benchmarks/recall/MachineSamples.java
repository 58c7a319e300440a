package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import io.engram.benchmarks.support.ProcessCpu;
import io.engram.store.opensearch.OpenSearchException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.nodes.info.NodesInfoMetric;
import org.opensearch.client.opensearch.nodes.stats.NodesStatsMetric;

/**
 * What the machine did during a run, read beside the requests: the host's share of the CPU, the
 * processes' CPU and JIT compilers, and the collections of this JVM and of OpenSearch's.
 */
final class MachineSamples {

    private MachineSamples() {}

    /**
     * Starts sampling: the host's CPU ticks and this JVM's collections are recorded from this
     * class's initialisation on, so a run calls this before its first phase.
     */
    static void start() {}

    /** A half-second of a phase is quiet when the host took less than this share of the CPU. */
    static final double QUIET_STOLEN = 0.05;

    static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /**
     * The machine's CPU ticks every 100 ms, {nanoTime, total, stolen}: how much of each half-second
     * of a phase the host gave to other guests, so that a phase's tail can be told apart from the
     * host's.
     */
    static final ConcurrentLinkedQueue<long[]> HOST_TICKS = new ConcurrentLinkedQueue<>();

    static {
        ScheduledExecutorService ticks =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "host-ticks");
                            t.setDaemon(true);
                            return t;
                        });
        ticks.scheduleAtFixedRate(
                () -> {
                    long[] c = cpuTicks();
                    if (c != null) {
                        HOST_TICKS.add(new long[] {System.nanoTime(), c[1], c[2]});
                        while (HOST_TICKS.size() > 100_000) {
                            HOST_TICKS.poll();
                        }
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
    }

    /**
     * The share of the CPU the host took in each half-second from {@code start} (nanoTime) for
     * {@code seconds}, NaN where the ticks do not tell.
     */
    static double[] stolenBySlice(long start, double seconds) {
        List<long[]> ticks = new ArrayList<>(HOST_TICKS);
        double[] out = new double[(int) Math.ceil(seconds * 1e9 / SLICE_NANOS)];
        for (int i = 0; i < out.length; i++) {
            long from = start + i * SLICE_NANOS;
            long[] first = null;
            long[] last = null;
            for (long[] t : ticks) {
                if (t[0] <= from) {
                    first = t;
                } else if (t[0] <= from + SLICE_NANOS + SLICE_NANOS / 5) {
                    last = t;
                }
            }
            out[i] =
                    first == null || last == null || last[1] == first[1]
                            ? Double.NaN
                            : (double) (last[2] - first[2]) / (last[1] - first[1]);
        }
        return out;
    }

    /** The OpenSearch node's collections so far: {count, milliseconds}, over all collectors. */
    static long[] openSearchGc(OpenSearchClient openSearch) {
        var nodes =
                OpenSearchException.call(
                        "reading node statistics",
                        () ->
                                openSearch
                                        .nodes()
                                        .stats(
                                                s ->
                                                        s.nodeId("_local")
                                                                .metric(NodesStatsMetric.Jvm)));
        long count = 0;
        long millis = 0;
        for (var node : nodes.nodes().values()) {
            for (var gc : node.jvm().gc().collectors().values()) {
                count += gc.collectionCount() == null ? 0 : gc.collectionCount();
                millis += gc.collectionTimeInMillis() == null ? 0 : gc.collectionTimeInMillis();
            }
        }
        return new long[] {count, millis};
    }

    /**
     * The stop-the-world collections of this JVM, which hosts the service: each one stalls every
     * request in flight. From the collectors' notifications (G1's young and full collections,
     * Shenandoah's and ZGC's pauses; not their concurrent cycles, which run beside the requests).
     */
    static final ConcurrentLinkedQueue<Long> GC_PAUSES_MS = new ConcurrentLinkedQueue<>();

    static {
        for (java.lang.management.GarbageCollectorMXBean gc :
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().endsWith("Cycles") || gc.getName().contains("Concurrent")) {
                continue;
            }
            ((javax.management.NotificationEmitter) gc)
                    .addNotificationListener(
                            (n, handback) -> {
                                if (com.sun.management.GarbageCollectionNotificationInfo
                                        .GARBAGE_COLLECTION_NOTIFICATION
                                        .equals(n.getType())) {
                                    GC_PAUSES_MS.add(
                                            com.sun.management.GarbageCollectionNotificationInfo
                                                    .from(
                                                            (javax.management.openmbean
                                                                            .CompositeData)
                                                                    n.getUserData())
                                                    .getGcInfo()
                                                    .getDuration());
                                }
                            },
                            null,
                            null);
        }
    }

    /** The collections since the last call. */
    static List<Long> drainGcPauses() {
        List<Long> out = new ArrayList<>();
        Long d;
        while ((d = GC_PAUSES_MS.poll()) != null) {
            out.add(d);
        }
        return out;
    }

    /**
     * The machine's CPU ticks since boot from /proc/stat: {busy, total, stolen}; null off Linux.
     * Busy counts the ticks the hypervisor gave to other guests (stolen) too: this VM's cores were
     * not free then either.
     */
    static long[] cpuTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            long stolen = f.length > 8 ? Long.parseLong(f[8]) : 0;
            return new long[] {total - idle, total, stolen};
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * CPU seconds used so far by the JIT compilers of the service's JVM (this one) and of
     * OpenSearch's: the threads HotSpot names "C1/C2 CompilerThread", from Linux's /proc; NaN where
     * that cannot be read.
     */
    static double[] compilerSeconds(Target target) {
        return new double[] {
            compilerSeconds(ProcessHandle.current().pid()), compilerSeconds(target.openSearchPid())
        };
    }

    static double compilerSeconds(long pid) {
        if (pid <= 0) {
            return Double.NaN;
        }
        try (java.util.stream.Stream<Path> threads =
                Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            long ticks = 0;
            for (Path thread : (Iterable<Path>) threads::iterator) {
                ProcessCpu.Stat stat = ProcessCpu.Stat.read(thread);
                if (stat != null
                        && (stat.comm().startsWith("C1 CompilerThre")
                                || stat.comm().startsWith("C2 CompilerThre"))) {
                    ticks += stat.ticks();
                }
            }
            return ticks / ProcessCpu.TICKS_PER_SECOND;
        } catch (java.io.IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU seconds so far of this JVM (the service and the load generator), of OpenSearch and of
     * PostgreSQL (see {@link ProcessCpu}).
     */
    static double[] processSeconds(Target target) {
        ProcessCpu cpu = ProcessCpu.now();
        return new double[] {
            cpu.seconds(ProcessHandle.current().pid()),
            cpu.seconds(target.openSearchPid()),
            cpu.postgresSeconds()
        };
    }

    /** The OpenSearch node's process id, or 0 when it does not say. */
    static long openSearchPid(OpenSearchClient openSearch) {
        var nodes =
                OpenSearchException.call(
                        "reading node information",
                        () ->
                                openSearch
                                        .nodes()
                                        .info(
                                                i ->
                                                        i.nodeId("_local")
                                                                .metric(NodesInfoMetric.Process)));
        for (var node : nodes.nodes().values()) {
            return node.process() == null ? 0 : node.process().id();
        }
        return 0;
    }
}
