package io.engram.benchmarks.recall;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.auth.ApiKeys;
import io.engram.benchmarks.ingest.IngestionBenchmark;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.benchmarks.support.ProcessCpu;
import io.engram.config.EngramConfig;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.OnnxEmbedder;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.services.LocalServices;
import io.engram.serving.ServingApp;
import io.engram.serving.recall.RecallStages;
import io.engram.serving.recall.RowCache;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.msearch.MultisearchBody;
import org.opensearch.client.opensearch.nodes.info.NodesInfoMetric;
import org.opensearch.client.opensearch.nodes.stats.NodesStatsMetric;

/**
 * Recall under load against the running serving tier: seeds memories for many users, then sends
 * search requests at a fixed rate (single query, then multi-query) and, in the same run, times the
 * bare cost of one query embedding plus one filtered k-NN search for comparison.
 *
 * <p>{@code RecallLoadBenchmark [memories] [users] [rate/s] [seconds] [out.md] [locomo.jsonl]}
 */
public final class RecallLoadBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RecallLoadBenchmark() {}

    public static void main(String[] args) throws Exception {
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
                            OnnxEmbedder.ModelSpec.forVersion(config.embedding().version()),
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
    private static void writeLatencies(Path file, Map<String, List<Long>> series)
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
    private static void writeRequests(Path file, Map<String, Result> phases)
            throws java.io.IOException {
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

    /** A half-second of a phase is quiet when the host took less than this share of the CPU. */
    static final double QUIET_STOLEN = 0.05;

    static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /**
     * The machine's CPU ticks every 100 ms, {nanoTime, total, stolen}: how much of each half-second
     * of a phase the host gave to other guests, so that a phase's tail can be told apart from the
     * host's.
     */
    private static final ConcurrentLinkedQueue<long[]> HOST_TICKS = new ConcurrentLinkedQueue<>();

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
    private static double[] stolenBySlice(long start, double seconds) {
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
    private static long[] openSearchGc(OpenSearchClient openSearch) {
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
    private static final ConcurrentLinkedQueue<Long> GC_PAUSES_MS = new ConcurrentLinkedQueue<>();

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
    private static List<Long> drainGcPauses() {
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
    private static long[] cpuTicks() {
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

    /** An answer: its status, body and {@code Server-Timing} header (null when absent). */
    record Answer(int status, String body, String serverTiming) {}

    /**
     * One answered request: when it was sent (since its phase began), the client's latency and the
     * service's own times from the answer's {@code Server-Timing} header (stage → ms, with {@code
     * total}).
     */
    record Sample(long sentMicros, long clientMicros, Map<String, Double> serverMs) {

        static Sample of(long sentMicros, long clientMicros, String serverTiming) {
            Map<String, Double> ms = new java.util.HashMap<>();
            if (serverTiming != null) {
                for (String part : serverTiming.split(",\\s*")) {
                    int at = part.indexOf(";dur=");
                    if (at > 0) {
                        ms.put(part.substring(0, at), Double.parseDouble(part.substring(at + 5)));
                    }
                }
            }
            return new Sample(sentMicros, clientMicros, ms);
        }
    }

    /**
     * The load generator's HTTP client: Vert.x's, on an event loop of its own, with pooled
     * keep-alive connections. Nothing blocks per request and no thread is started per request (the
     * JDK client's asynchronous calls start one on a 2-core machine, and its code is a second HTTP
     * stack for the JIT of this JVM, which also hosts the serving tier, to compile).
     */
    static final class LoadClient implements AutoCloseable {
        private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        private final HttpClientAgent http;

        LoadClient(int port) {
            http =
                    vertx.createHttpClient(
                            new HttpClientOptions()
                                    .setDefaultHost("127.0.0.1")
                                    .setDefaultPort(port)
                                    .setKeepAlive(true)
                                    .setTcpNoDelay(true),
                            new PoolOptions().setHttp1MaxSize(512).setMaxWaitQueueSize(-1));
        }

        /** One request; {@code key} and {@code body} may be null. Never blocks. */
        Future<Answer> send(HttpMethod method, String path, String key, String body) {
            RequestOptions options =
                    new RequestOptions().setMethod(method).setURI(path).setTimeout(30_000);
            if (key != null) {
                options.putHeader("Authorization", "Bearer " + key);
            }
            if (body != null) {
                options.putHeader("Content-Type", "application/json");
            }
            return http.request(options)
                    .compose(r -> body == null ? r.send() : r.send(Buffer.buffer(body)))
                    .compose(
                            response ->
                                    response.body()
                                            .map(
                                                    b ->
                                                            new Answer(
                                                                    response.statusCode(),
                                                                    b.toString(),
                                                                    response.getHeader(
                                                                            "Server-Timing"))));
        }

        @Override
        public void close() {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

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
    private static Result run(Target target, int rate, int seconds, Mode mode) throws Exception {
        phase(target, rate, LEAD_IN_SECONDS, mode);
        return phase(target, rate, seconds, mode);
    }

    /**
     * Requests at {@code rate}/s for {@code seconds}; a rate of 0: one at a time for {@code
     * seconds}, each sent when the previous one is answered.
     */
    private static Result phase(Target target, int rate, int seconds, Mode mode) throws Exception {
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
    private static Result phase(Target target, int rate, int seconds, Mode mode, BareLoop bare)
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
    private static void awaitAnsweredOrStuck(
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
     * CPU seconds used so far by the JIT compilers of the service's JVM (this one) and of
     * OpenSearch's: the threads HotSpot names "C1/C2 CompilerThread", from Linux's /proc; NaN where
     * that cannot be read.
     */
    private static double[] compilerSeconds(Target target) {
        return new double[] {
            compilerSeconds(ProcessHandle.current().pid()), compilerSeconds(target.openSearchPid())
        };
    }

    private static double compilerSeconds(long pid) {
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
    private static double[] processSeconds(Target target) {
        ProcessCpu cpu = ProcessCpu.now();
        return new double[] {
            cpu.seconds(ProcessHandle.current().pid()),
            cpu.seconds(target.openSearchPid()),
            cpu.postgresSeconds()
        };
    }

    /** The OpenSearch node's process id, or 0 when it does not say. */
    private static long openSearchPid(OpenSearchClient openSearch) {
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
    private static int warmUp(Target target, int rate, int light) throws Exception {
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

    /** Bare cost samples, each list sorted: embedding + k-NN, and the embedding alone. */
    record Bare(List<Long> total, List<Long> embedding) {}

    /**
     * The {@code n}th question about a corpus line: unique, so that no cache answers it, and of a
     * chat question's length.
     */
    private static String question(String text, int n) {
        return "What did they say about " + String.join(" ", firstWords(text, 6)) + " (" + n + ")?";
    }

    /** One bare query embedding + filtered k-NN search at a time, each timed. */
    private static final class BareLoop implements AutoCloseable {
        private final EngramConfig config;
        private final OpenSearchClient idsAndScores;
        private final List<String[]> lines;
        private final int users;
        private final Random random;
        private final OnnxEmbedder model;
        private final List<Long> total = new ArrayList<>();
        private final List<Long> embedding = new ArrayList<>();
        private int done;

        BareLoop(
                EngramConfig config,
                OpenSearchClient openSearch,
                List<String[]> lines,
                int users,
                Random random) {
            this.config = config;
            this.idsAndScores = openSearch.withTransportOptions(MemoryQuery.IDS_AND_SCORES_ONLY);
            this.lines = lines;
            this.users = users;
            this.random = random;
            this.model =
                    OnnxEmbedder.load(
                            OnnxEmbedder.ModelSpec.forVersion(config.embedding().version()),
                            config.embedding().modelPath(config.home()),
                            1);
        }

        void once() {
            String query = question(lines.get(random.nextInt(lines.size()))[1], done++);
            Scope scope = new Scope("bench", "default", "prod", "u" + random.nextInt(users));
            long t0 = System.nanoTime();
            float[] v = model.embed(query);
            embedding.add((System.nanoTime() - t0) / 1000);
            MemoryQuery q = MemoryQuery.forScope(scope);
            // The k-NN search recall sends, ids and scores only, as one search of its own.
            MultisearchBody body = MemoryQuery.idsOnly(q.knn(v, 21), 21);
            OpenSearchException.call(
                    "the bare k-NN search",
                    () ->
                            idsAndScores.msearch(
                                    m ->
                                            m.searches(
                                                    s ->
                                                            s.header(
                                                                            h ->
                                                                                    h.index(
                                                                                                    config
                                                                                                            .memoryIndexAlias())
                                                                                            .routing(
                                                                                                    q
                                                                                                            .routing()))
                                                                    .body(body)),
                                    Void.class));
            total.add((System.nanoTime() - t0) / 1000);
        }

        /** Forgets what was timed so far (a lead-in). */
        void clear() {
            total.clear();
            embedding.clear();
        }

        /** What was timed, without its first tenth (which warms the model and the connection). */
        Bare result() {
            int n = total.size();
            return new Bare(
                    total.subList(n / 10, n).stream().sorted().toList(),
                    embedding.subList(n / 10, n).stream().sorted().toList());
        }

        @Override
        public void close() {
            model.close();
        }
    }

    private static Bare bareCost(
            EngramConfig config,
            OpenSearchClient openSearch,
            List<String[]> lines,
            int users,
            int n,
            int pauseMs,
            Random random)
            throws Exception {
        try (BareLoop loop = new BareLoop(config, openSearch, lines, users, random)) {
            for (int i = 0; i < n; i++) {
                if (pauseMs > 0) {
                    Thread.sleep(pauseMs);
                }
                loop.once();
            }
            return loop.result();
        }
    }

    private static void seed(
            EngramConfig config,
            OpenSearchClient openSearch,
            CachingEmbedder embedder,
            List<String[]> lines,
            int memories,
            int users)
            throws Exception {
        MemoryStoreWriter writer = new MemoryStoreWriter(config.memoryIndexAlias());
        Instant base = Instant.parse("2026-01-01T00:00:00Z");
        try (Connection c =
                DriverManager.getConnection(
                        config.postgres().url(),
                        config.postgres().user(),
                        config.postgres().password())) {
            List<MemoryChange> batch = new ArrayList<>();
            for (int i = 0; i < memories; i++) {
                int user = i % users;
                String[] line = lines.get((i / users + user * 7) % lines.size());
                String content = line[0] + ": " + line[1];
                Scope scope = new Scope("bench", "default", "prod", "u" + user);
                float[] vector = embedder.embed(content);
                UUID id = MemoryIds.fromConversation(scope, List.of("t" + i), content);
                Instant at = base.plusSeconds(i * 60L);
                batch.add(
                        new MemoryChange.Created(
                                new Memory(
                                        id,
                                        scope,
                                        Optional.of("s" + i / 20),
                                        MemoryType.SEMANTIC,
                                        content,
                                        List.of(),
                                        "conversation",
                                        List.of("t" + i),
                                        0.5,
                                        Tier.HOT,
                                        MemoryStatus.ACTIVE,
                                        at,
                                        Optional.empty(),
                                        Optional.empty(),
                                        1,
                                        embedder.version(),
                                        vector,
                                        at),
                                "seed",
                                0));
                if (batch.size() == 1000) {
                    writer.writePostgres(c, batch);
                    writer.writeIndex(openSearch, batch);
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                writer.writePostgres(c, batch);
                writer.writeIndex(openSearch, batch);
            }
        }
        String alias = config.memoryIndexAlias();
        OpenSearchException.call(
                "refreshing " + alias, () -> openSearch.indices().refresh(r -> r.index(alias)));
        // One segment, one HNSW graph: merging 100k vectors takes minutes on two cores.
        OpenSearchClient merging =
                OpenSearchClients.forConfig(config.openSearch(), Duration.ofMinutes(15));
        OpenSearchException.call(
                "merging " + alias,
                () -> merging.indices().forcemerge(f -> f.index(alias).maxNumSegments(1L)));
    }

    private static String apiKey(EngramConfig config) throws Exception {
        String key = ApiKeys.generate();
        try (Connection c =
                        DriverManager.getConnection(
                                config.postgres().url(),
                                config.postgres().user(),
                                config.postgres().password());
                PreparedStatement st =
                        c.prepareStatement(
                                "insert into api_keys (id, key_prefix, key_hash, tenant_id, project_id, environment, scopes, rate_limit_per_s)"
                                        + " values (?, ?, ?, 'bench', 'default', 'prod', array['read','write'], 100000)")) {
            st.setObject(1, UUID.randomUUID());
            st.setString(2, ApiKeys.displayPrefix(key));
            st.setString(3, ApiKeys.hash(key));
            st.executeUpdate();
        }
        return key;
    }

    private static List<String> firstWords(String text, int n) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("\\s+")) {
            if (out.size() == n) {
                break;
            }
            out.add(w.replaceAll("[^A-Za-z0-9']", ""));
        }
        return out;
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1))
                / 1000.0;
    }

    private static String bareRow(String pacing, Bare bare) {
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

    private static String ratio(Result recall, Bare bare) {
        return String.format("%.2f", pct(recall.latenciesMicros(), 0.5) / pct(bare.total(), 0.5));
    }

    private static String report(
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
                        + Runtime.getRuntime().availableProcessors()
                        + " cores, Java "
                        + System.getProperty("java.version")
                        + "; date "
                        + LocalDate.now()
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
    private static String timeRows(String phase, Result r) {
        List<Sample> bySlowness = new ArrayList<>(r.samples());
        bySlowness.sort(java.util.Comparator.comparingLong(Sample::clientMicros));
        int slowest = Math.max(1, bySlowness.size() / 100);
        return timeRow(phase + ", all", bySlowness)
                + "\n"
                + timeRow(
                        phase + ", slowest 1%",
                        bySlowness.subList(bySlowness.size() - slowest, bySlowness.size()));
    }

    private static String timeRow(String name, List<Sample> samples) {
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
    private static String footprint(Optional<RowCache> rows) {
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

    private static long heapAfterCollection() {
        System.gc();
        System.gc();
        return java.lang.management.ManagementFactory.getMemoryMXBean()
                .getHeapMemoryUsage()
                .getUsed();
    }

    /** The mean of a value over the samples that have it, or — when none has. */
    private static String mean(
            List<Sample> samples, java.util.function.Function<Sample, Double> value) {
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

    private static String row(String name, Result r) {
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
