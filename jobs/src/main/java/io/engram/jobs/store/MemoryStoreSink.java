package io.engram.jobs.store;

import io.engram.config.EngramConfig;
import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.OpenSearchAuth;
import io.engram.store.opensearch.OpenSearchClient;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import redis.clients.jedis.JedisPooled;

/**
 * Writes decided changes to PostgreSQL, OpenSearch and the Redis cache generation, in batches: a
 * batch is written when it is full, when its first change has waited {@code flushIntervalMs},
 * before every checkpoint and at end of input. Every write is idempotent by (id, version), so the
 * replay after a failure neither loses nor duplicates memories.
 */
public class MemoryStoreSink implements Sink<byte[]> {

    private static final long serialVersionUID = 1L;

    private final EngramConfig.Postgres postgres;
    private final String openSearchUrl;
    private final OpenSearchAuth openSearchAuth;
    private final String alias;
    private final EngramConfig.Redis redisConfig;
    private final int batchSize;
    private final long flushIntervalMs;

    public MemoryStoreSink(
            EngramConfig.Postgres postgres,
            String openSearchUrl,
            OpenSearchAuth openSearchAuth,
            String alias,
            EngramConfig.Redis redis,
            int batchSize,
            long flushIntervalMs) {
        this.postgres = postgres;
        this.openSearchUrl = openSearchUrl;
        this.openSearchAuth = openSearchAuth;
        this.alias = alias;
        this.redisConfig = redis;
        this.batchSize = batchSize;
        this.flushIntervalMs = flushIntervalMs;
    }

    @Override
    public SinkWriter<byte[]> createWriter(WriterInitContext context) throws IOException {
        return new Writer(context);
    }

    private final class Writer implements SinkWriter<byte[]> {
        private final MemoryStoreWriter writer = new MemoryStoreWriter(alias);
        private final OpenSearchClient openSearch =
                new OpenSearchClient(openSearchUrl, openSearchAuth, Duration.ofSeconds(30));
        private final JedisPooled redis;
        private final CacheGenerations.Pending bumps;
        private final List<MemoryChange> buffer = new ArrayList<>();
        private final Counter written;
        private final Counter flushes;
        private volatile long lastFlushMs;
        private final ReopeningConnection connection = new ReopeningConnection(postgres);
        private final ProcessingTimeService timers;
        private boolean flushTimerSet;

        Writer(WriterInitContext context) {
            this.timers = context.getProcessingTimeService();
            this.redis = RedisConnections.open(redisConfig);
            this.bumps = new CacheGenerations.Pending(redis, false);
            var group = context.metricGroup();
            written = group.counter("memoryChangesWritten");
            flushes = group.counter("storeFlushes");
            group.gauge("lastFlushMillis", () -> lastFlushMs);
            group.gauge("cacheBumpsWaiting", () -> bumps.waiting());
        }

        @Override
        public void write(byte[] element, Context context) throws IOException {
            buffer.addAll(MemoryCodec.decodeChanges(element));
            if (buffer.size() >= batchSize) {
                flush(false);
            } else if (!buffer.isEmpty() && !flushTimerSet) {
                // A change waits at most flushIntervalMs, not for the next checkpoint.
                flushTimerSet = true;
                timers.registerTimer(
                        timers.getCurrentProcessingTime() + flushIntervalMs, this::flushDue);
            }
        }

        /** On the task's thread, as write and flush are. */
        private void flushDue(long time) throws IOException {
            flushTimerSet = false;
            if (!buffer.isEmpty()) {
                flush(false);
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            if (buffer.isEmpty()) {
                // Called at every checkpoint: bumps Redis did not take are sent again.
                bumps.retry();
                return;
            }
            long start = System.nanoTime();
            try {
                writer.write(connection.get(), openSearch, this::invalidate, buffer);
            } catch (SQLException e) {
                connection.close();
                throw new IOException(
                        "writing " + buffer.size() + " memory changes to PostgreSQL failed", e);
            }
            written.inc(buffer.size());
            flushes.inc();
            buffer.clear();
            lastFlushMs = (System.nanoTime() - start) / 1_000_000;
        }

        private void invalidate(Set<Scope> scopes) {
            bumps.bump(scopes);
        }

        @Override
        public void close() {
            connection.close();
            if (redis != null) {
                redis.close();
            }
        }
    }
}
