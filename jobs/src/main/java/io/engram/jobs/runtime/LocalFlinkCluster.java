package io.engram.jobs.runtime;

import java.net.URI;
import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * An in-process Flink cluster for the local stack: every endpoint on 127.0.0.1, checkpoints under
 * the stack's data directory so a restart resumes from them.
 */
public final class LocalFlinkCluster implements AutoCloseable {

    private final MiniCluster cluster;
    private final Configuration configuration;

    private LocalFlinkCluster(MiniCluster cluster, Configuration configuration) {
        this.cluster = cluster;
        this.configuration = configuration;
    }

    public static LocalFlinkCluster start(Path dataDir, int slots) throws Exception {
        Configuration conf = loopbackConfiguration();
        conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                dataDir.resolve("checkpoints").toUri().toString());
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        return new LocalFlinkCluster(cluster, conf);
    }

    /** A configuration that binds every Flink endpoint to loopback with a free REST port. */
    public static Configuration loopbackConfiguration() {
        Configuration conf = new Configuration();
        conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
        conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
        conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
        conf.set(TaskManagerOptions.HOST, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, 0);
        return conf;
    }

    public MiniCluster miniCluster() {
        return cluster;
    }

    public Configuration configuration() {
        return configuration;
    }

    /** The Flink web UI / REST endpoint. */
    public URI restAddress() throws Exception {
        return cluster.getRestAddress().get();
    }

    public boolean isRunning() {
        return cluster.isRunning();
    }

    /** Cancels running jobs (their retained checkpoints stay for the next start), then stops. */
    @Override
    public void close() throws Exception {
        try {
            for (var job : cluster.listJobs().get(10, java.util.concurrent.TimeUnit.SECONDS)) {
                if (!job.getJobState().isGloballyTerminalState()) {
                    cluster.cancelJob(job.getJobId())
                            .get(30, java.util.concurrent.TimeUnit.SECONDS);
                }
            }
        } catch (Exception e) {
            // stopping the cluster below ends the jobs anyway
        }
        cluster.close();
    }
}
