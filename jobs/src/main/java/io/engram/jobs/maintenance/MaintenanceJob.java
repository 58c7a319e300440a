package io.engram.jobs.maintenance;

import java.time.Instant;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * A maintenance run as a Flink batch job: the users are split into {@code parallelism} partitions
 * by a hash of (tenant, user); each parallel task reads its partition from PostgreSQL with a
 * bounded scan, writes its changes to PostgreSQL and OpenSearch, and adds its counts to the run's
 * report. All memories of a user are in one partition, so per-user work never races.
 */
public final class MaintenanceJob {

    private MaintenanceJob() {}

    public static String jobName(MaintenanceKind kind) {
        return "engram-maintenance-" + kind.wireName();
    }

    /**
     * Adds the run's pipeline to {@code env} (batch execution mode). A reindex copies into {@code
     * reindexTarget} every memory, or with {@code reindexChangedSince} only those changed since
     * then (the catch-ups after the copy).
     */
    public static void build(
            StreamExecutionEnvironment env,
            MaintenanceKind kind,
            MaintenanceSettings settings,
            UUID runId,
            Instant asOf,
            String tenantOrNull,
            String reindexTarget,
            Instant reindexChangedSince) {
        int partitions = settings.parallelism();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.fromSequence(0, partitions - 1)
                .setParallelism(partitions)
                .name("partitions")
                .rebalance()
                .map(
                        new RunPartition(
                                kind,
                                settings,
                                runId,
                                asOf.toEpochMilli(),
                                tenantOrNull,
                                partitions,
                                reindexTarget,
                                reindexChangedSince == null
                                        ? -1
                                        : reindexChangedSince.toEpochMilli()))
                .returns(Types.LONG)
                .setParallelism(partitions)
                .name(kind.wireName())
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1)
                .name("done");
    }

    static MaintenanceTask task(
            MaintenanceKind kind, String reindexTarget, long reindexChangedSinceMs) {
        return switch (kind) {
            case DECAY -> new DecayTask();
            case CONSOLIDATE -> new ConsolidationTask();
            case RETENTION -> new RetentionTask();
            case QUOTA -> new QuotaTask();
            case REINDEX ->
                    new ReindexTask(
                            reindexTarget,
                            reindexChangedSinceMs < 0
                                    ? null
                                    : Instant.ofEpochMilli(reindexChangedSinceMs));
        };
    }

    /** Runs one partition of the job. */
    static final class RunPartition implements MapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;

        private final MaintenanceKind kind;
        private final MaintenanceSettings settings;
        private final UUID runId;
        private final long asOfMs;
        private final String tenant;
        private final int partitions;
        private final String reindexTarget;
        private final long reindexChangedSinceMs;

        RunPartition(
                MaintenanceKind kind,
                MaintenanceSettings settings,
                UUID runId,
                long asOfMs,
                String tenant,
                int partitions,
                String reindexTarget,
                long reindexChangedSinceMs) {
            this.kind = kind;
            this.settings = settings;
            this.runId = runId;
            this.asOfMs = asOfMs;
            this.tenant = tenant;
            this.partitions = partitions;
            this.reindexTarget = reindexTarget;
            this.reindexChangedSinceMs = reindexChangedSinceMs;
        }

        @Override
        public Long map(Long partition) throws Exception {
            try (TaskContext ctx =
                    new TaskContext(
                            settings,
                            Instant.ofEpochMilli(asOfMs),
                            tenant,
                            partition.intValue(),
                            partitions)) {
                task(kind, reindexTarget, reindexChangedSinceMs).run(ctx);
                ctx.flushCounts(runId);
                return partition;
            }
        }
    }
}
