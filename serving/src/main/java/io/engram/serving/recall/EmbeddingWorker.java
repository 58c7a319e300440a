package io.engram.serving.recall;

import io.engram.embedding.Embedder;
import io.engram.memory.Scope;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Runs the embedder off the event loops on a small worker pool with bounded backlogs: when a
 * backlog is full the call fails at once (the caller degrades) instead of queueing without limit.
 * Recall queries and writes have a backlog each: a recall overload, which only degrades recalls to
 * BM25, does not refuse the writes, whose texts wait in the same queue behind it.
 */
public final class EmbeddingWorker implements AutoCloseable {

    private final Embedder embedder;
    private final WorkerExecutor executor;
    private final int threads;
    private final int maxInFlight;
    private final AtomicInteger queriesInFlight = new AtomicInteger();
    private final AtomicInteger writesInFlight = new AtomicInteger();
    private final AtomicInteger queuedTexts = new AtomicInteger();
    private final AtomicLong expired = new AtomicLong();

    public EmbeddingWorker(Vertx vertx, Embedder embedder, int threads, int maxInFlight) {
        this.embedder = embedder;
        this.executor = vertx.createSharedWorkerExecutor("engram-embedding", threads);
        this.threads = threads;
        this.maxInFlight = maxInFlight;
    }

    /**
     * A write's vectors, however long the model takes. Writes have their own backlog of {@code
     * maxInFlight} calls, so queries filling theirs do not refuse a write. {@code owner} is whose
     * texts these are (see {@link #forget}).
     */
    public Future<List<float[]>> embed(Scope owner, List<String> texts) {
        return embed(owner, texts, Long.MAX_VALUE, false);
    }

    /**
     * A query's vectors, or a failure after {@code timeoutMs}. A text still waiting for a thread
     * when the caller has given up is not embedded at all: under overload the model only works for
     * callers that still wait. Queries have their own backlog of {@code maxInFlight} calls.
     */
    public Future<List<float[]>> embed(Scope owner, List<String> texts, long timeoutMs) {
        return embed(owner, texts, timeoutMs, true);
    }

    /** Drops what the embedder keeps of the texts of the owners that match (its cache). */
    public int forget(Predicate<Scope> owners) {
        return embedder.forget(owners);
    }

    private Future<List<float[]>> embed(
            Scope owner, List<String> texts, long timeoutMs, boolean query) {
        AtomicInteger inFlight = query ? queriesInFlight : writesInFlight;
        long deadline =
                timeoutMs == Long.MAX_VALUE
                        ? Long.MAX_VALUE
                        : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return Future.failedFuture("embedding backlog full");
        }
        queuedTexts.addAndGet(texts.size());
        Future<List<float[]>> vectors;
        if (texts.size() > 1 && !embedder.batches()) {
            // The model runs one text per call anyway: the pool's threads share the texts.
            List<Future<List<float[]>>> parts =
                    texts.stream().map(t -> run(owner, List.of(t), deadline, query)).toList();
            vectors =
                    Future.all(parts)
                            .map(all -> parts.stream().map(p -> p.result().get(0)).toList());
        } else {
            vectors = run(owner, texts, deadline, query);
        }
        vectors =
                vectors.onComplete(
                        ar -> {
                            inFlight.decrementAndGet();
                            queuedTexts.addAndGet(-texts.size());
                        });
        return deadline == Long.MAX_VALUE
                ? vectors
                : vectors.timeout(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private Future<List<float[]>> run(
            Scope owner, List<String> texts, long deadline, boolean query) {
        return executor.executeBlocking(
                () -> {
                    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                        expired.addAndGet(texts.size());
                        throw new TimeoutException("query embedding waited past its deadline");
                    }
                    return query
                            ? embedder.embedQueries(owner, texts)
                            : embedder.embed(owner, texts);
                },
                false);
    }

    /** How many texts were dropped unembedded because their caller had stopped waiting. */
    public long expired() {
        return expired.get();
    }

    /**
     * Whether texts are waiting for the model: more are queued or running than two per thread. A
     * caller with optional texts (auxiliary questions) should leave them out.
     */
    public boolean busy() {
        return queuedTexts.get() > 2 * threads;
    }

    public String version() {
        return embedder.version();
    }

    @Override
    public void close() {
        executor.close();
        embedder.close();
    }
}
