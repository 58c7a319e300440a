package io.engram.serving.memories;

import io.engram.memory.Scope;
import io.engram.serving.http.Problem;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.store.JdbcPool;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the writes of the memory API share: JDBC work on a small worker pool (the write plane's
 * idempotent writer is JDBC), the index writer, and the result cache to invalidate afterwards.
 */
final class MemoryWrites implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryWrites.class);

    private final JdbcPool jdbc;
    private final WorkerExecutor workers;
    private final OpenSearchClient index;
    private final String alias;
    private final Optional<ResultCache> cache;

    MemoryWrites(
            Vertx vertx,
            JdbcPool jdbc,
            OpenSearchClient index,
            String alias,
            Optional<ResultCache> cache) {
        this.jdbc = jdbc;
        this.workers = vertx.createSharedWorkerExecutor("engram-writes", 4);
        this.index = index;
        this.alias = alias;
        this.cache = cache;
    }

    OpenSearchClient index() {
        return index;
    }

    String alias() {
        return alias;
    }

    /**
     * Runs JDBC work off the event loop. A problem it throws (404, 409, 412…) is the answer; any
     * other failure is logged and answered 503 saying {@code unchanged}, without the store's text.
     */
    <T> Future<T> blocking(String unchanged, JdbcPool.Work<T> work) {
        return workers.<T>executeBlocking(() -> jdbc.with(work), false)
                .recover(
                        err -> {
                            if (err instanceof Problem) {
                                return Future.failedFuture(err);
                            }
                            LOG.warn("memory write failed ({}): {}", unchanged, err.toString());
                            return Future.failedFuture(
                                    Problem.unavailable(
                                            "memory store unavailable; " + unchanged + "; retry"));
                        });
    }

    /** Makes the scopes' cached answers stale. */
    Future<Void> bump(Iterable<Scope> scopes) {
        return eachCachedScope(scopes, ResultCache::bump);
    }

    /** Invalidates and deletes the scopes' cached answers, which hold memory content. */
    Future<Void> forgetCached(Iterable<Scope> scopes) {
        return eachCachedScope(scopes, ResultCache::forget);
    }

    /**
     * The result cache expires on its own: Redis failing must not fail a write that happened (the
     * cache itself keeps and retries what Redis refused).
     */
    private Future<Void> eachCachedScope(
            Iterable<Scope> scopes, BiFunction<ResultCache, Scope, Future<Void>> op) {
        if (cache.isEmpty()) {
            return Future.succeededFuture();
        }
        List<Future<Void>> ops = new ArrayList<>();
        scopes.forEach(s -> ops.add(op.apply(cache.get(), s)));
        return Future.join(ops)
                .<Void>mapEmpty()
                .recover(
                        err -> {
                            LOG.warn("result cache not updated: {}", err.toString());
                            return Future.succeededFuture();
                        });
    }

    @Override
    public void close() {
        workers.close();
    }
}
