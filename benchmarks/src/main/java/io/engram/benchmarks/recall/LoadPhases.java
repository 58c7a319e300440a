package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import io.engram.serving.recall.RowCache;
import io.vertx.core.http.HttpMethod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * The measured phases of a run: fixed-rate load, its lead-in, the warm-up, and waiting for the last
 * answers.
 */
final class LoadPhases {

    private LoadPhases() {}

    /**
     * Seconds at a measured phase's rate and mode before it is measured: the switch from the
     * previous phase (another rate, or three queries a request instead of one) is not the steady
     * state at a fixed rate that the phase measures.
     */
    static final int LEAD_IN_SECONDS = 5;

    /** How long the overload phase offers twice the rate. */
    static final int OVERLOAD_SECONDS = 10;

    /** What each request of a phase asks for. */
    enum Mode {
        SINGLE("single-query", ",\"multi_query\":false"),
        MULTI("multi-query", ",\"multi_query\":true"),
        CHAIN("chain", ",\"multi_query\":false,\"strategy\":\"chain\"");

        final String label;
        final String fields;

        Mode(String label, String fields) {
            this.label = label;
            this.fields = fields;
        }
    }

    /** Where the load goes and what it is made of. */
    record Target(
            LoadClient http,
            OpenSearchClient openSearch,
            String url,
            String key,
            List<String[]> lines,
            int users,
            Random random,
            long openSearchPid,
            Optional<RowCache> rows) {}

    /** One measured phase, after its lead-in. */
    static Result run(Target target, int rate, int seconds, Mode mode) throws Exception {
        phase(target, rate, LEAD_IN_SECONDS, mode);
        return phase(target, rate, seconds, mode);
    }

    /**
     * Requests at {@code rate}/s for {@code seconds}; a rate of 0: one at a time for {@code
     * seconds}, each sent when the previous one is answered.
     */
    static Result phase(Target target, int rate, int seconds, Mode mode) throws Exception {
        return phase(target, rate, seconds, mode, null);
    }

    /**
     * How long a block of recalls or of bare embeddings + k-NN lasts when the two alternate: long
     * enough for each to run back to back, short against the changes in the host's share of the
     * CPU.
     */
    static final long BLOCK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * A phase; with {@code bare} (one at a time only), recalls back to back for a second, then bare
     * embeddings + k-NN back to back for a second, and so on, so that both are timed in the same
     * conditions.
     */
    static Result phase(Target target, int rate, int seconds, Mode mode, BareLoop bare)
            throws Exception {
        LoadClient http = target.http();
        OpenSearchClient openSearch = target.openSearch();
        String url = target.url();
        String key = target.key();
        List<String[]> lines = target.lines();
        int users = target.users();
        Random random = target.random();
        System.out.printf(
                "%s %s recall %s for %d s%n",
                Instant.now(),
                mode.label,
                rate == 0 ? "one at a time" : "at " + rate + "/s",
                seconds);
        drainGcPauses();
        long[] openSearchGcBefore = openSearchGc(openSearch);
        long[] cpuBefore = cpuTicks();
        double[] compilersBefore = compilerSeconds(target);
        double[] processesBefore = processSeconds(target);
        long[] rowsBefore = target.rows().map(RowCache::stats).orElse(new long[2]);
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger degraded = new AtomicInteger();
        Map<String, Integer> failures = new java.util.concurrent.ConcurrentHashMap<>();
        List<CompletableFuture<?>> pending = Collections.synchronizedList(new ArrayList<>());
        Map<CompletableFuture<?>, Long> sentAt = new java.util.concurrent.ConcurrentHashMap<>();
        long start = System.nanoTime();
        AtomicInteger sent = new AtomicInteger();
        java.util.function.Supplier<CompletableFuture<?>> request =
                () -> {
                    int n = sent.incrementAndGet();
                    String user = "u" + random.nextInt(users);
                    String text = lines.get(random.nextInt(lines.size()))[1];
                    String query = question(text, n);
                    String body =
                            "{\"user_id\":\""
                                    + user
                                    + "\",\"query\":"
                                    + quote(query)
                                    + mode.fields
                                    + ",\"limit\":7}";
                    long t0 = System.nanoTime();
                    CompletableFuture<?> done = new CompletableFuture<>();
                    sentAt.put(done, t0);
                    pending.add(done);
                    // A request the client never completes (seen once in an overload phase)
                    // counts as a failure instead of holding the run for ever.
                    http.send(HttpMethod.POST, url, key, body)
                            .timeout(60, TimeUnit.SECONDS)
                            .onComplete(
                                    ar -> {
                                        long micros = (System.nanoTime() - t0) / 1000;
                                        latencies.add(micros);
                                        if (ar.succeeded() && ar.result().status() == 200) {
                                            samples.add(
                                                    Sample.of(
                                                            (t0 - start) / 1000,
                                                            micros,
                                                            ar.result().serverTiming()));
                                        }
                                        if (ar.failed()) {
                                            errors.incrementAndGet();
                                            failures.merge(
                                                    ar.cause().getClass().getSimpleName(),
                                                    1,
                                                    Integer::sum);
                                        } else if (ar.result().status() != 200) {
                                            errors.incrementAndGet();
                                            failures.merge(
                                                    "HTTP " + ar.result().status(),
                                                    1,
                                                    Integer::sum);
                                        } else if (!ar.result()
                                                .body()
                                                .contains("\"degraded\":[]")) {
                                            degraded.incrementAndGet();
                                        }
                                        done.complete(null);
                                    });
                    return done;
                };
        if (rate == 0) {
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long block = System.nanoTime();
            while (System.nanoTime() < end) {
                request.get().join();
                if (bare != null && System.nanoTime() - block >= BLOCK_NANOS) {
                    block = System.nanoTime();
                    while (System.nanoTime() - block < BLOCK_NANOS) {
                        bare.once();
                    }
                    block = System.nanoTime();
                }
            }
        } else {
            int total = rate * seconds;
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
            var task =
                    ticker.scheduleAtFixedRate(
                            () -> {
                                if (sent.get() < total) {
                                    request.get();
                                }
                            },
                            0,
                            1_000_000_000L / rate,
                            TimeUnit.NANOSECONDS);
            while (sent.get() < total) {
                Thread.sleep(50);
            }
            task.cancel(false);
            ticker.shutdown();
        }
        // A request the client never completes (rare, on the client's side) must not stretch the
        // phase: its clock, CPU and compiler figures stop once every request is answered or the
        // ones left have waited STUCK_MS; those count as errors when their timeout fires.
        awaitAnsweredOrStuck(pending, sentAt);
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] cpuAfter = cpuTicks();
        long[] openSearchGcAfter = openSearchGc(openSearch);
        double[] compilersAfter = compilerSeconds(target);
        double[] processesAfter = processSeconds(target);
        long[] rowsAfter = target.rows().map(RowCache::stats).orElse(new long[2]);
        long hydratedKept = rowsAfter[0] - rowsBefore[0];
        long hydratedRead = rowsAfter[1] - rowsBefore[1];
        CompletableFuture.allOf(pending.toArray(new CompletableFuture[0]))
                .exceptionally(e -> null)
                .join();
        double cpuBusy =
                cpuBefore == null || cpuAfter == null || cpuAfter[1] == cpuBefore[1]
                        ? Double.NaN
                        : (double) (cpuAfter[0] - cpuBefore[0]) / (cpuAfter[1] - cpuBefore[1]);
        double cpuStolen =
                Double.isNaN(cpuBusy)
                        ? Double.NaN
                        : (double) (cpuAfter[2] - cpuBefore[2]) / (cpuAfter[1] - cpuBefore[1]);
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        double[] stolen = stolenBySlice(start, elapsed);
        List<Long> quiet = new ArrayList<>();
        for (Sample sample : samples) {
            int slice = (int) (sample.sentMicros() * 1000 / SLICE_NANOS);
            if (slice < stolen.length && stolen[slice] < QUIET_STOLEN) {
                quiet.add(sample.clientMicros());
            }
        }
        Collections.sort(quiet);
        return new Result(
                rate,
                sorted,
                errors.get(),
                sent.get() / elapsed,
                degraded.get(),
                failures,
                new ArrayList<>(samples),
                cpuBusy,
                cpuStolen,
                drainGcPauses(),
                new long[] {
                    openSearchGcAfter[0] - openSearchGcBefore[0],
                    openSearchGcAfter[1] - openSearchGcBefore[1]
                },
                new double[] {
                    (compilersAfter[0] - compilersBefore[0]) / elapsed,
                    (compilersAfter[1] - compilersBefore[1]) / elapsed
                },
                hydratedKept + hydratedRead == 0
                        ? Double.NaN
                        : (double) hydratedKept / (hydratedKept + hydratedRead),
                quiet,
                java.util.Arrays.stream(stolen).filter(x -> x < QUIET_STOLEN).count()
                        / (double) Math.max(1, stolen.length),
                new double[] {
                    (processesAfter[0] - processesBefore[0]) / elapsed,
                    (processesAfter[1] - processesBefore[1]) / elapsed,
                    (processesAfter[2] - processesBefore[2]) / elapsed
                });
    }

    /**
     * A request unanswered this long after it was sent is stuck (the service's deadline is 1 s).
     */
    static final long STUCK_MS = 5_000;

    /** Waits until every request is answered or the unanswered ones were sent STUCK_MS ago. */
    static void awaitAnsweredOrStuck(
            List<CompletableFuture<?>> pending, Map<CompletableFuture<?>, Long> sentAt)
            throws InterruptedException {
        while (true) {
            long now = System.nanoTime();
            boolean settled;
            synchronized (pending) {
                settled =
                        pending.stream()
                                .allMatch(
                                        f ->
                                                f.isDone()
                                                        || now - sentAt.get(f)
                                                                > TimeUnit.MILLISECONDS.toNanos(
                                                                        STUCK_MS));
            }
            if (settled) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /**
     * Longest extra warm-up, in rounds of {@link #SETTLE_ROUND_SECONDS} at the rate and as long at
     * a quarter of it with multi-query.
     */
    static final int MAX_SETTLE_ROUNDS = 12;

    static final int SETTLE_ROUND_SECONDS = 10;

    /** The JIT compilers are quiet when they use less than this share of a core. */
    static final double QUIET_COMPILERS = 0.05;

    /**
     * Warms up until the JIT compilers of both JVMs are quiet (or {@link #MAX_SETTLE_ROUNDS}
     * rounds): on two cores their compiling takes a good part of the machine for minutes, which a
     * service that has been running for an hour no longer pays. Returns the seconds spent.
     */
    static int warmUp(Target target, int rate, int light) throws Exception {
        phase(target, rate, 30, Mode.SINGLE);
        phase(target, light, 20, Mode.MULTI);
        int seconds = 50;
        for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
            Result single = phase(target, rate, SETTLE_ROUND_SECONDS, Mode.SINGLE);
            Result multi = phase(target, light, SETTLE_ROUND_SECONDS, Mode.MULTI);
            seconds += 2 * SETTLE_ROUND_SECONDS;
            double busiest =
                    java.util.stream.DoubleStream.of(
                                    single.compilerShare()[0],
                                    single.compilerShare()[1],
                                    multi.compilerShare()[0],
                                    multi.compilerShare()[1])
                            .max()
                            .orElse(Double.NaN);
            System.out.printf(
                    "%s JIT compilers: %.0f%% of a core at most%n", Instant.now(), 100 * busiest);
            if (!(busiest >= QUIET_COMPILERS)) {
                break;
            }
        }
        return seconds;
    }
}
