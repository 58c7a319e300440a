package io.engram.jobs.maintenance;

import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs maintenance jobs: records the run, prepares what the job needs (a new index for a reindex),
 * executes the Flink batch job, finishes what it started (the alias switch) and stores the report.
 */
public final class MaintenanceRunner {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceRunner.class);

    /** Executes a built job: on a cluster, a mini cluster or in-process. */
    public interface Executor {
        void execute(StreamExecutionEnvironment env, String jobName) throws Exception;
    }

    /** {@code env.execute}: in-process for a plain JVM, the cluster's under {@code flink run}. */
    public static Executor inProcess() {
        return (env, name) -> env.execute(name);
    }

    /** How often a running run's runner says so. */
    static final Duration HEARTBEAT = Duration.ofSeconds(10);

    /** A running run whose runner has been silent this long is failed as abandoned. */
    static final Duration ABANDONED_AFTER = HEARTBEAT.multipliedBy(6);

    private static final ScheduledExecutorService HEARTBEATS =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "engram-maintenance-heartbeat");
                        t.setDaemon(true);
                        return t;
                    });

    private final MaintenanceSettings settings;
    private final Executor executor;
    private final Duration heartbeat;

    public MaintenanceRunner(MaintenanceSettings settings, Executor executor) {
        this(settings, executor, HEARTBEAT);
    }

    MaintenanceRunner(MaintenanceSettings settings, Executor executor, Duration heartbeat) {
        this.settings = settings;
        this.executor = executor;
        this.heartbeat = heartbeat;
    }

    /** Records and runs one job now. */
    public MaintenanceReport run(
            MaintenanceKind job, String tenantOrNull, Instant asOf, String requestedBy)
            throws Exception {
        UUID id;
        try (Connection c = TaskContext.connect(settings)) {
            id = MaintenanceRuns.request(c, job, tenantOrNull, asOf, requestedBy);
        }
        return runRequested(id).orElseThrow();
    }

    /** Runs a requested run, unless another runner has taken it. */
    public Optional<MaintenanceReport> runRequested(UUID id) throws Exception {
        Optional<MaintenanceRuns.Run> run;
        try (Connection c = TaskContext.connect(settings)) {
            run = MaintenanceRuns.claim(c, id);
        }
        return run.isEmpty() ? Optional.empty() : Optional.of(execute(run.get()));
    }

    /**
     * Runs the oldest requested run, if any. First fails the runs whose runner died (no heartbeat
     * for {@link #ABANDONED_AFTER}), so none stays 'running' for ever and a daily one is asked for
     * again.
     */
    public Optional<MaintenanceReport> runNextRequested() throws Exception {
        Optional<MaintenanceRuns.Run> run;
        try (Connection c = TaskContext.connect(settings)) {
            int abandoned = MaintenanceRuns.failAbandoned(c, ABANDONED_AFTER);
            if (abandoned > 0) {
                LOG.warn(
                        "{} maintenance run(s) failed as abandoned: no heartbeat for {} s",
                        abandoned,
                        ABANDONED_AFTER.toSeconds());
            }
            run = MaintenanceRuns.claimNext(c);
        }
        return run.isEmpty() ? Optional.empty() : Optional.of(execute(run.get()));
    }

    private MaintenanceReport execute(MaintenanceRuns.Run run) throws Exception {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        OpenSearchClient openSearch =
                OpenSearchClients.create(
                        settings.openSearchUrl(),
                        settings.openSearchAuth(),
                        Duration.ofSeconds(60));
        String note = null;
        ScheduledFuture<?> beats =
                HEARTBEATS.scheduleWithFixedDelay(
                        () -> beat(run.id()),
                        heartbeat.toMillis(),
                        heartbeat.toMillis(),
                        TimeUnit.MILLISECONDS);
        try {
            note = repairIndex();
            String target = null;
            if (run.job() == MaintenanceKind.REINDEX) {
                if (run.tenant() != null) {
                    throw new IllegalArgumentException(
                            "reindex rebuilds the whole index; it cannot be run for one tenant");
                }
                target =
                        settings.indexAlias()
                                + "-"
                                + run.id().toString().substring(0, 8).toLowerCase(Locale.ROOT);
                IndexBootstrap.createIndex(
                        openSearch, target, settings.shards(), settings.replicas());
            }
            runJob(run, target, null, MaintenanceJob.jobName(run.job()));
            long removed = 0;
            if (target != null) {
                // What the write plane changed while the copy ran reaches the new index before
                // recall reads it; what it changed during that catch-up, right after the switch.
                Instant copyCaughtUpFrom = catchUp(run, target, runStarted(run));
                String refreshed = target;
                OpenSearchException.call(
                        "refreshing " + target,
                        () -> openSearch.indices().refresh(r -> r.index(refreshed)));
                IndexBootstrap.switchAlias(openSearch, settings.indexAlias(), target);
                note =
                        (note == null ? "" : note + "; ")
                                + "alias "
                                + settings.indexAlias()
                                + " now points at "
                                + target;
                recordEmbeddingVersion();
                catchUp(run, target, copyCaughtUpFrom);
                try (Connection c = TaskContext.connect(settings)) {
                    removed = StaleDocuments.remove(openSearch, target, c, STALE_GRACE);
                }
            }
            Map<String, Long> counts;
            try (Connection c = TaskContext.connect(settings)) {
                counts = new HashMap<>(MaintenanceRuns.counts(c, run.id()));
            }
            if (target != null) {
                counts.put("removed", removed);
            }
            long scanned = counts.getOrDefault("scanned", 0L);
            counts.remove("scanned");
            MaintenanceReport report =
                    new MaintenanceReport(
                            run.id(),
                            run.job(),
                            run.tenant(),
                            run.asOf(),
                            scanned,
                            counts,
                            started,
                            Duration.ofNanos(System.nanoTime() - t0),
                            note);
            try (Connection c = TaskContext.connect(settings)) {
                MaintenanceRuns.succeed(c, report);
            }
            LOG.info("maintenance {}", report);
            return report;
        } catch (Exception e) {
            LOG.warn("maintenance run {} ({}) failed", run.id(), run.job().wireName(), e);
            try (Connection c = TaskContext.connect(settings)) {
                MaintenanceRuns.fail(c, run.id(), String.valueOf(rootCause(e)));
            } catch (SQLException recording) {
                e.addSuppressed(recording);
            }
            throw e;
        } finally {
            beats.cancel(false);
        }
    }

    /** Builds the run's Flink job and executes it to its end. */
    private void runJob(
            MaintenanceRuns.Run run, String reindexTarget, Instant reindexChangedSince, String name)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        MaintenanceJob.build(
                env,
                run.job(),
                settings,
                run.id(),
                run.asOf(),
                run.tenant(),
                reindexTarget,
                reindexChangedSince);
        executor.execute(env, name);
    }

    /**
     * Mends what failed runs left behind in the index ({@link IndexRepair}); the note for the
     * report, or null when there was nothing to mend. A repair that fails is tried again by the
     * next run, and this one goes on: an index still refusing writes fails it anyway.
     */
    private String repairIndex() {
        try {
            IndexRepair.Outcome repaired = IndexRepair.run(settings);
            if (repaired.runs().isEmpty()) {
                return null;
            }
            LOG.info("maintenance: {}", repaired.note());
            return repaired.note();
        } catch (Exception e) {
            LOG.warn("maintenance: index repair after failed runs failed; next run tries again", e);
            return null;
        }
    }

    private void beat(UUID id) {
        try (Connection c = TaskContext.connect(settings)) {
            MaintenanceRuns.beat(c, id);
        } catch (SQLException e) {
            LOG.warn("maintenance run {}: heartbeat not recorded: {}", id, e.toString());
        }
    }

    /**
     * What the write plane did to the old index from {@code since} (database time), done to the new
     * one: the memories changed since then are copied again (a document's external version keeps
     * the newer of two writes). Documents whose memory is gone or no longer current (forgotten,
     * deleted, archived) are removed by {@link StaleDocuments} at the end. Returns the database
     * time this catch-up started from for the next one.
     */
    private Instant catchUp(MaintenanceRuns.Run run, String target, Instant since)
            throws Exception {
        Instant started;
        try (Connection c = TaskContext.connect(settings);
                PreparedStatement st = c.prepareStatement("select clock_timestamp()");
                ResultSet rs = st.executeQuery()) {
            rs.next();
            started = rs.getTimestamp(1).toInstant();
        }
        // A row's updated_at is its transaction's start: a write begun just before the previous
        // copy and committed after its snapshot is older than that copy.
        runJob(
                run,
                target,
                since.minus(Duration.ofMinutes(1)),
                MaintenanceJob.jobName(run.job()) + "-catch-up");
        return started;
    }

    private Instant runStarted(MaintenanceRuns.Run run) throws SQLException {
        try (Connection c = TaskContext.connect(settings)) {
            return MaintenanceRuns.startedAt(c, run.id());
        }
    }

    /**
     * A document without a current row is removed only if it still has none this long after it was
     * seen: a writer indexes inside its PostgreSQL transaction, before the row is visible.
     */
    static final Duration STALE_GRACE = Duration.ofSeconds(5);

    /**
     * After a reindex every indexed memory carries the configured version; PostgreSQL says so too,
     * or a later rewrite from its row (a tier change) would index the old version's name, which
     * recall filters out.
     */
    private void recordEmbeddingVersion() throws SQLException {
        try (Connection c = TaskContext.connect(settings);
                PreparedStatement st =
                        c.prepareStatement(
                                "update memories set embedding_version = ? where status in"
                                        + " ('active', 'superseded') and embedding_version <> ?")) {
            st.setString(1, settings.embeddingVersion());
            st.setString(2, settings.embeddingVersion());
            st.executeUpdate();
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
