package io.engram.benchmarks.recall;

import io.engram.aws.RequestSigner;
import io.engram.benchmarks.ingest.IngestionBenchmark;
import io.engram.benchmarks.recall.TransportReport.Tally;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.config.EngramConfig;
import io.engram.services.LocalServices;
import io.engram.serving.store.VertxTransport;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import io.engram.store.opensearch.wire.OpenSearchWire;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.hc.core5.http.HttpHost;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.MsearchResponse;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/**
 * The serving tier's recall multi-search (a filtered k-NN leg and a BM25 leg, ids and scores only,
 * as {@code HybridSearch} sends it) through opensearch-java's asynchronous client on two
 * transports, from one Vert.x event loop: Engram's {@link VertxTransport} (the call and its
 * decoding on the event loop) and the library's Apache HttpClient 5 transport (its own I/O threads;
 * the answer handed back to the event loop, as the serving tier would need). The two alternate in
 * blocks of a few seconds, so both meet the same machine; each block's latency (sent on the event
 * loop → answer on it) and this JVM's CPU time per request are recorded. No query embedding: only
 * the client differs.
 *
 * <p>{@code TransportBenchmark [documents] [users] [rate] [seconds per client] [report.md]}
 */
public final class TransportBenchmark {

    static final int BLOCK_SECONDS = 5;

    private TransportBenchmark() {}

    /** One client under test: its name and its asynchronous client; {@code hop} back or not. */
    private record Client(String name, OpenSearchAsyncClient client, boolean hop) {}

    public static void main(String[] args) throws Exception {
        int documents = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        Path report =
                Path.of(args.length > 4 ? args[4] : "benchmarks/results/opensearch-transports.md");
        Path home = Files.createTempDirectory("engram-transports-");
        Vertx vertx = Vertx.vertx();
        try (LocalServices services = BenchmarkStores.start(home, "1g", "256m")) {
            EngramConfig config = BenchmarkStores.prepare(home, services, Map.of());
            OpenSearchClient blocking =
                    OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(120));
            List<String[]> lines =
                    IngestionBenchmark.corpusLines(
                            Path.of("../shared/bench/locomo/locomo_dev.jsonl"));
            long t0 = System.nanoTime();
            TransportRequests.seed(blocking, config.memoryIndexAlias(), lines, documents, users);
            // One segment, as the recall benchmark does: no merge runs under the measurement.
            OpenSearchClient merging =
                    OpenSearchClients.forConfig(config.openSearch(), Duration.ofMinutes(15));
            OpenSearchException.call(
                    "merging",
                    () ->
                            merging.indices()
                                    .forcemerge(
                                            f ->
                                                    f.index(config.memoryIndexAlias())
                                                            .maxNumSegments(1L)));
            double seedSeconds = (System.nanoTime() - t0) / 1e9;
            String url = config.openSearch().url();
            VertxTransport vertxTransport =
                    new VertxTransport(vertx, url, RequestSigner.NONE, 5_000, 32);
            var apacheTransport =
                    ApacheHttpClient5TransportBuilder.builder(HttpHost.create(url))
                            .setMapper(OpenSearchWire.MAPPER)
                            .build();
            List<Client> clients =
                    List.of(
                            new Client(
                                    "Vert.x transport (Engram's)",
                                    new OpenSearchAsyncClient(
                                            vertxTransport, MemoryQuery.IDS_AND_SCORES_ONLY),
                                    false),
                            new Client(
                                    "Apache HttpClient 5 transport (opensearch-java's)",
                                    new OpenSearchAsyncClient(
                                            apacheTransport, MemoryQuery.IDS_AND_SCORES_ONLY),
                                    true));
            Context context = vertx.getOrCreateContext();
            TransportRequests requests =
                    new TransportRequests(config.memoryIndexAlias(), lines, users, 42);
            for (Client c : clients) {
                // Each must decode the trimmed answer the serving tier asks for.
                probe(context, c, requests);
            }
            System.out.println("warm-up");
            for (int i = 0; i < 4; i++) {
                for (Client c : clients) {
                    paced(context, c, requests, rate, BLOCK_SECONDS);
                }
            }
            Tally[] pacedTallies = {new Tally(), new Tally()};
            Tally[] serialTallies = {new Tally(), new Tally()};
            for (int b = 0; b < seconds / BLOCK_SECONDS; b++) {
                for (int i = 0; i < clients.size(); i++) {
                    pacedTallies[i].add(paced(context, clients.get(i), requests, rate, 5));
                }
                System.out.println("paced block " + (b + 1));
            }
            for (int b = 0; b < seconds / 2; b++) {
                for (int i = 0; i < clients.size(); i++) {
                    serialTallies[i].add(serial(context, clients.get(i), requests, 1));
                }
            }
            String text =
                    TransportReport.render(
                            clients.stream().map(Client::name).toList(),
                            pacedTallies,
                            serialTallies,
                            documents,
                            users,
                            rate,
                            seconds,
                            seedSeconds);
            System.out.println(text);
            Files.createDirectories(report.toAbsolutePath().getParent());
            Files.writeString(report, text);
            apacheTransport.close();
            vertxTransport.close();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            BenchmarkStores.deleteTree(home);
        }
    }

    /** A call's answer on the event loop: directly, or handed back from the client's thread. */
    private static Future<MsearchResponse<Void>> call(
            Context context, Client c, TransportRequests requests) {
        CompletableFuture<MsearchResponse<Void>> started = requests.send(c.client());
        return c.hop()
                ? Future.fromCompletionStage(started, context)
                : Future.fromCompletionStage(started);
    }

    private static void probe(Context context, Client c, TransportRequests requests)
            throws Exception {
        CompletableFuture<Integer> hits = new CompletableFuture<>();
        context.runOnContext(
                v ->
                        call(context, c, requests)
                                .onSuccess(
                                        r ->
                                                hits.complete(
                                                        r.responses().stream()
                                                                .mapToInt(
                                                                        i ->
                                                                                i.isResult()
                                                                                        ? MemoryQuery
                                                                                                .hits(
                                                                                                        i
                                                                                                                .result())
                                                                                                .size()
                                                                                        : -1000)
                                                                .sum()))
                                .onFailure(hits::completeExceptionally));
        System.out.println(c.name() + ": probe answered with " + hits.get(30, TimeUnit.SECONDS));
    }

    /** {@code rate} calls a second for {@code seconds}, sent on the event loop's timer. */
    private static Tally paced(
            Context context, Client c, TransportRequests requests, int rate, int seconds)
            throws Exception {
        int total = rate * seconds;
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        Tally t = new Tally();
        CountDownLatch done = new CountDownLatch(total);
        AtomicInteger errors = new AtomicInteger();
        long[] latencies = new long[total];
        long cpu0 = processCpuNanos();
        long start = System.nanoTime();
        context.runOnContext(
                v -> {
                    int[] sent = {0};
                    Runnable[] tick = new Runnable[1];
                    tick[0] =
                            () -> {
                                long now = System.nanoTime();
                                // Catch up with the schedule: every call due by now goes out.
                                while (sent[0] < total && start + sent[0] * periodNanos <= now) {
                                    int i = sent[0]++;
                                    long due = start + i * periodNanos;
                                    call(context, c, requests)
                                            .onComplete(
                                                    r -> {
                                                        latencies[i] = System.nanoTime() - due;
                                                        if (r.failed()) {
                                                            errors.incrementAndGet();
                                                        }
                                                        done.countDown();
                                                    });
                                }
                                if (sent[0] < total) {
                                    context.owner().setTimer(1, id -> tick[0].run());
                                }
                            };
                    tick[0].run();
                });
        if (!done.await(seconds + 60L, TimeUnit.SECONDS)) {
            throw new IllegalStateException(c.name() + ": calls left unanswered");
        }
        t.wallNanos = System.nanoTime() - start;
        t.cpuNanos = processCpuNanos() - cpu0;
        t.errors = errors.get();
        for (long l : latencies) {
            t.nanos.add(l);
        }
        return t;
    }

    /** One call at a time, each sent when the last is answered, for {@code seconds}. */
    private static Tally serial(Context context, Client c, TransportRequests requests, int seconds)
            throws Exception {
        Tally t = new Tally();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long cpu0 = processCpuNanos();
        long start = System.nanoTime();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        Supplier<Void>[] next = new Supplier[1];
        next[0] =
                () -> {
                    long sent = System.nanoTime();
                    call(context, c, requests)
                            .onComplete(
                                    r -> {
                                        t.nanos.add(System.nanoTime() - sent);
                                        if (r.failed()) {
                                            t.errors++;
                                        }
                                        if (System.nanoTime() < end) {
                                            next[0].get();
                                        } else {
                                            finished.complete(null);
                                        }
                                    });
                    return null;
                };
        context.runOnContext(v -> next[0].get());
        finished.get(seconds + 60L, TimeUnit.SECONDS);
        t.wallNanos = System.nanoTime() - start;
        t.cpuNanos = processCpuNanos() - cpu0;
        return t;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
