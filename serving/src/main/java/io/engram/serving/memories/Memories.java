package io.engram.serving.memories;

import io.engram.dedup.ChangePlanner;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.store.JdbcPool;
import io.engram.serving.store.OpenSearchReads;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.util.Optional;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * The memory API besides recall, by use case: reads, explicit stores, edits of one memory, forget.
 * Every statement carries the caller's full scope, so an id of another user or tenant is simply not
 * found.
 */
public record Memories(
        MemoryReads reads,
        ExplicitStore store,
        MemoryEdits edits,
        Forgetting forgetting,
        Runnable onClose)
        implements AutoCloseable {

    public static Memories create(
            Vertx vertx,
            Pool pool,
            JdbcPool jdbc,
            OpenSearchReads openSearch,
            OpenSearchClient indexWriter,
            String alias,
            EmbeddingWorker embedder,
            ChangePlanner planner,
            Optional<ResultCache> cache,
            PeerNotices peers) {
        MemoryWrites writes = new MemoryWrites(vertx, jdbc, indexWriter, alias, cache);
        MemoryReads reads = new MemoryReads(pool);
        return new Memories(
                reads,
                new ExplicitStore(writes, openSearch, embedder, planner),
                new MemoryEdits(writes, pool, reads, embedder),
                new Forgetting(pool, openSearch, writes, peers),
                writes::close);
    }

    @Override
    public void close() {
        onClose.run();
    }
}
