package io.engram.serving.recall;

import io.engram.embedding.Embedder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the embedder off the event loops on a small worker pool with a bounded backlog: when the
 * backlog is full the call fails at once (the caller degrades) instead of queueing without limit.
 */
public final class EmbeddingWorker implements AutoCloseable {

    private final Embedder embedder;
    private final WorkerExecutor executor;
    private final int threads;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger queuedTexts = new AtomicInteger();

    public EmbeddingWorker(Vertx vertx, Embedder embedder, int threads, int maxInFlight) {
        this.embedder = embedder;
        this.executor = vertx.createSharedWorkerExecutor("engram-embedding", threads);
        this.threads = threads;
        this.maxInFlight = maxInFlight;
    }

    public Future<List<float[]>> embed(List<String> texts) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return Future.failedFuture("embedding backlog full");
        }
        queuedTexts.addAndGet(texts.size());
        Future<List<float[]>> vectors;
        if (texts.size() > 1 && !embedder.batches()) {
            // The model runs one text per call anyway: the pool's threads share the texts.
            List<Future<List<float[]>>> parts = texts.stream().map(t -> run(List.of(t))).toList();
            vectors =
                    Future.all(parts)
                            .map(all -> parts.stream().map(p -> p.result().get(0)).toList());
        } else {
            vectors = run(texts);
        }
        return vectors.onComplete(
                ar -> {
                    inFlight.decrementAndGet();
                    queuedTexts.addAndGet(-texts.size());
                });
    }

    private Future<List<float[]>> run(List<String> texts) {
        return executor.executeBlocking(() -> embedder.embed(texts), false);
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
