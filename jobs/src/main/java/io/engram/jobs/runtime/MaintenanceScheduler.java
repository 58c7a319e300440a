package io.engram.jobs.runtime;

import io.engram.jobs.maintenance.MaintenanceKind;
import io.engram.jobs.maintenance.MaintenanceRunner;
import io.engram.jobs.maintenance.MaintenanceRuns;
import io.engram.jobs.maintenance.MaintenanceSettings;
import io.engram.jobs.maintenance.TaskContext;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the maintenance jobs on the local stack's mini cluster: every job once a day at the
 * configured time, and every run requested through the admin API as soon as it is requested.
 */
public final class MaintenanceScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);

    private final MaintenanceSettings settings;
    private final MaintenanceRunner runner;
    private final Optional<LocalTime> dailyAt;
    private final Clock clock;

    /** The last day whose daily runs are known to be requested (checked once a day). */
    private LocalDate requestedFor;

    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "engram-maintenance");
                        t.setDaemon(true);
                        return t;
                    });

    public MaintenanceScheduler(
            LocalFlinkCluster cluster,
            MaintenanceSettings settings,
            String dailyAtUtc,
            Clock clock) {
        this.settings = settings;
        this.runner = new MaintenanceRunner(settings, onCluster(cluster));
        this.dailyAt =
                dailyAtUtc.equals("off")
                        ? Optional.empty()
                        : Optional.of(LocalTime.parse(dailyAtUtc));
        this.clock = clock;
    }

    /** Submits the job graph to the mini cluster and waits for its end. */
    public static MaintenanceRunner.Executor onCluster(LocalFlinkCluster cluster) {
        return (env, name) -> {
            StreamGraph streamGraph = env.getStreamGraph();
            streamGraph.setJobName(name);
            JobGraph graph =
                    streamGraph.getJobGraph(MaintenanceScheduler.class.getClassLoader(), null);
            cluster.miniCluster().submitJob(graph).get();
            JobResult result = cluster.miniCluster().requestJobResult(graph.getJobID()).get();
            if (!result.isSuccess()) {
                Throwable cause =
                        result.getSerializedThrowable()
                                .map(
                                        t ->
                                                t.deserializeError(
                                                        MaintenanceScheduler.class
                                                                .getClassLoader()))
                                .orElse(new IllegalStateException(name + " did not succeed"));
                throw new IllegalStateException(name + " failed: " + cause, cause);
            }
        };
    }

    public MaintenanceScheduler start() {
        timer.scheduleWithFixedDelay(this::tick, 2, 2, TimeUnit.SECONDS);
        return this;
    }

    private void tick() {
        try {
            requestDailyRuns();
            while (runner.runNextRequested().isPresent()) {
                // one after the other: jobs of one kind never overlap
            }
        } catch (Exception e) {
            LOG.warn("maintenance tick failed: {}", e.toString());
        }
    }

    /** Requests the daily jobs once the day's time has passed and they were not requested yet. */
    private void requestDailyRuns() throws Exception {
        if (dailyAt.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Instant due = today.atTime(dailyAt.get()).toInstant(ZoneOffset.UTC);
        if (now.isBefore(due) || today.equals(requestedFor)) {
            return;
        }
        try (Connection c = TaskContext.connect(settings)) {
            // Also asks the table, so a restart on the same day does not run them twice.
            for (MaintenanceKind job : MaintenanceKind.DAILY) {
                Optional<Instant> last = MaintenanceRuns.lastScheduled(c, job);
                if (last.isEmpty() || last.get().isBefore(due)) {
                    MaintenanceRuns.request(c, job, null, now, "schedule");
                }
            }
            if (MaintenanceRuns.anyRunning(c, "schedule")) {
                // Asked again next tick: if its runner died, the run is failed as abandoned and
                // requested anew.
                return;
            }
        }
        requestedFor = today;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
