package io.engram.jobs.store;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.events.DeadLetter;
import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import io.engram.store.IndexOutbox;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.OpenSearchAuth;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * Writes decided changes to PostgreSQL, OpenSearch and the Redis cache generation, in batches: a
 * batch is written when it is full, when its first change has waited {@code flushIntervalMs},
 * before every checkpoint and at end of input. Every write is idempotent by (id, version), so the
 * replay after a failure neither loses nor duplicates memories. Changes of turns sent before their
 * user's last forget are dropped ({@link MemoryStoreWriter#writeFromTurns}).
 *
 * <p>A store that is down fails the write (the job restarts from its checkpoint and replays). A
 * window whose changes a store refuses as data is written alone, and if it is refused again it goes
 * to the dead-letter outlet with the reason, so one bad record never holds up the others.
 */
public class MemoryStoreSink implements Sink<byte[]> {

    private static final long serialVersionUID = 1L;

    /** Longer than the index's refresh interval (1 s): documents written are searchable by then. */
    static final long AFTER_REFRESH_MS = 1_200;

    private final EngramConfig.Postgres postgres;
    private final String openSearchUrl;
    private final OpenSearchAuth openSearchAuth;
    private final String alias;
    private final EngramConfig.Redis redisConfig;
    private final DeadLetterOutlet deadLetters;
    private final int batchSize;
    private final long flushIntervalMs;

    public MemoryStoreSink(
            EngramConfig.Postgres postgres,
            String openSearchUrl,
            OpenSearchAuth openSearchAuth,
            String alias,
            EngramConfig.Redis redis,
            DeadLetterOutlet deadLetters,
            int batchSize,
            long flushIntervalMs) {
        this.postgres = postgres;
        this.openSearchUrl = openSearchUrl;
        this.openSearchAuth = openSearchAuth;
        this.alias = alias;
        this.redisConfig = redis;
        this.deadLetters = deadLetters;
        this.batchSize = batchSize;
        this.flushIntervalMs = flushIntervalMs;
    }

    @Override
    public SinkWriter<byte[]> createWriter(WriterInitContext context) throws IOException {
        return new Writer(context);
    }

    /** How often a writer looks for memories whose index write did not complete. */
    static final long REPAIR_EVERY_MS = 5_000;

    /** How long a memory waits for its own commit's index write before a repair takes it. */
    static final Duration REPAIR_AFTER = Duration.ofSeconds(10);

    /** Memories written again per repair at most. */
    static final int REPAIR_LIMIT = 500;

    /** PostgreSQL refusing the values themselves: data exception, constraint, program limit. */
    static boolean refusedAsData(SQLException e) {
        String state = e.getSQLState();
        return state != null
                && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54"));
    }

    private final class Writer implements SinkWriter<byte[]> {
        private final MemoryStoreWriter writer = new MemoryStoreWriter(alias);
        private final OpenSearchClient openSearch =
                OpenSearchClients.create(openSearchUrl, openSearchAuth, Duration.ofSeconds(30));
        private final RedisConnection redis;
        private final CacheGenerations.Pending bumps;
        private final DeadLetterOutlet.Open outlet;
        private final List<MemoryStoreWriter.FromTurns> buffer = new ArrayList<>();
        private int buffered;
        private final Counter written;
        private final Counter forgotten;
        private final Counter replayed;
        private final Counter refused;
        private final Counter flushes;
        private final Counter repaired;
        private long lastRepairNanos = System.nanoTime() - REPAIR_EVERY_MS * 1_000_000L;
        private volatile long lastFlushMs;
        private final ReopeningConnection connection = new ReopeningConnection(postgres);
        private final ProcessingTimeService timers;
        private boolean flushTimerSet;
        private boolean refreshTimerSet;
        private final Set<Scope> afterRefresh = new LinkedHashSet<>();

        Writer(WriterInitContext context) {
            this.timers = context.getProcessingTimeService();
            this.redis = RedisConnections.open(redisConfig);
            this.bumps = new CacheGenerations.Pending(redis, false);
            this.outlet = deadLetters.open();
            var group = context.metricGroup();
            written = group.counter("memoryChangesWritten");
            forgotten = group.counter("forgottenChangesDropped");
            replayed = group.counter("replayedChangesDropped");
            refused = group.counter("deadLetters");
            flushes = group.counter("storeFlushes");
            repaired = group.counter("indexDocumentsRepaired");
            group.gauge("lastFlushMillis", () -> lastFlushMs);
            group.gauge("cacheBumpsWaiting", () -> bumps.waiting());
        }

        @Override
        public void write(byte[] element, Context context) throws IOException {
            MemoryStoreWriter.FromTurns batch = MemoryCodec.decodeFromTurns(element);
            buffer.add(batch);
            buffered += batch.changes().size();
            if (buffered >= batchSize) {
                flush(false);
            } else if (!flushTimerSet) {
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
            repairIndexWhenDue();
            if (buffer.isEmpty()) {
                // Called at every checkpoint: bumps Redis did not take are sent again.
                bumps.retry();
                return;
            }
            long start = System.nanoTime();
            writeAll(buffer);
            flushes.inc();
            buffer.clear();
            buffered = 0;
            lastFlushMs = (System.nanoTime() - start) / 1_000_000;
        }

        /**
         * At most every {@link #REPAIR_EVERY_MS}: writes again to the index what a commit could not
         * (the index was down when it wrote). A repair that fails is tried again next time; the
         * writes of new windows report an index that is still down.
         */
        private void repairIndexWhenDue() {
            long now = System.nanoTime();
            if (now - lastRepairNanos < REPAIR_EVERY_MS * 1_000_000L) {
                return;
            }
            lastRepairNanos = now;
            try {
                IndexOutbox.Repair r =
                        writer.repairIndex(
                                connection.get(), openSearch, REPAIR_AFTER, REPAIR_LIMIT);
                if (!r.scopes().isEmpty()) {
                    repaired.inc(r.indexed() + r.removed());
                    invalidate(r.scopes());
                }
            } catch (SQLException e) {
                connection.close();
            } catch (OpenSearchException e) {
                // Still pending; the next repair tries again.
            }
        }

        /**
         * Writes the windows' changes together; when a store refuses them as data, each window
         * alone, and a window refused alone to the dead-letter outlet.
         */
        private void writeAll(List<MemoryStoreWriter.FromTurns> batches) throws IOException {
            String refusal;
            try {
                MemoryStoreWriter.Outcome outcome =
                        writer.writeFromTurns(
                                connection.get(), openSearch, this::invalidate, batches, "false");
                written.inc(outcome.written());
                forgotten.inc(outcome.forgotten());
                replayed.inc(outcome.replayed());
                return;
            } catch (SQLException e) {
                connection.close();
                if (!refusedAsData(e)) {
                    throw new IOException(
                            "writing " + count(batches) + " memory changes to PostgreSQL failed",
                            e);
                }
                refusal = "PostgreSQL refused it (" + e.getSQLState() + "): " + firstLine(e);
            } catch (OpenSearchException e) {
                if (e.isTransient()) {
                    throw new IOException("the index did not take the memory changes", e);
                }
                refusal = "the index refused it: " + firstLine(e);
            }
            if (batches.size() > 1) {
                for (MemoryStoreWriter.FromTurns b : batches) {
                    writeAll(List.of(b));
                }
                return;
            }
            deadLetter(batches.get(0), refusal);
        }

        private void deadLetter(MemoryStoreWriter.FromTurns batch, String reason)
                throws IOException {
            MemoryChange first = batch.changes().get(0);
            Set<String> turns = new LinkedHashSet<>();
            batch.changes().forEach(c -> turns.addAll(c.memory().sourceTurnIds()));
            byte[] letter =
                    DeadLetter.ofStage(
                            "store_failure",
                            "storing "
                                    + batch.changes().size()
                                    + " memory changes failed: "
                                    + reason,
                            first.memory().scope(),
                            first.memory().sessionId().orElse(null),
                            turns,
                            Instant.now());
            try {
                outlet.send(letter);
            } catch (Exception e) {
                throw new IOException("the dead-letter topic did not take a refused window", e);
            }
            refused.inc();
        }

        /**
         * Makes the scopes' cached answers stale now, and again once the index has refreshed: the
         * bulk does not wait for the documents to become searchable, so an answer computed in
         * between may lack them.
         */
        private void invalidate(Set<Scope> scopes) {
            bumps.bump(scopes);
            afterRefresh.addAll(scopes);
            if (!refreshTimerSet) {
                refreshTimerSet = true;
                timers.registerTimer(
                        timers.getCurrentProcessingTime() + AFTER_REFRESH_MS,
                        this::bumpAfterRefresh);
            }
        }

        private void bumpAfterRefresh(long time) {
            refreshTimerSet = false;
            if (!afterRefresh.isEmpty()) {
                bumps.bump(new LinkedHashSet<>(afterRefresh));
                afterRefresh.clear();
            }
        }

        @Override
        public void close() {
            connection.close();
            outlet.close();
            if (redis != null) {
                redis.close();
            }
        }
    }

    private static int count(List<MemoryStoreWriter.FromTurns> batches) {
        return batches.stream().mapToInt(b -> b.changes().size()).sum();
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, Math.min(nl, 300));
    }
}
