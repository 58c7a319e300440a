package io.engram.jobs.runtime;

import io.engram.jobs.extraction.ExtractionJob;
import io.engram.jobs.extraction.ExtractionSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Runs the streaming job in the local stack's mini cluster under a fixed job id, so its retained
 * checkpoints sit in one directory and a restart of the stack resumes from the latest of them.
 */
public final class LocalJobs {

    /** The extraction job's id in the local stack. */
    public static final JobID EXTRACTION_JOB_ID =
            JobID.fromHexString("e0e0e0e0e0e0e0e0e0e0e0e0e0e0e001");

    private LocalJobs() {}

    public static JobID submitExtraction(
            LocalFlinkCluster cluster, ExtractionSettings settings, Path checkpoints)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ExtractionJob.forKafka(settings, false).build(env);
        StreamGraph streamGraph = env.getStreamGraph();
        streamGraph.setJobName(ExtractionJob.JOB_NAME);
        JobGraph graph =
                streamGraph.getJobGraph(LocalJobs.class.getClassLoader(), EXTRACTION_JOB_ID);
        latestCheckpoint(checkpoints.resolve(EXTRACTION_JOB_ID.toHexString()))
                .ifPresent(
                        path ->
                                graph.setSavepointRestoreSettings(
                                        SavepointRestoreSettings.forPath(path.toString(), true)));
        cluster.miniCluster().submitJob(graph).get();
        return EXTRACTION_JOB_ID;
    }

    /** The newest complete checkpoint ({@code chk-N} with metadata) under a job's directory. */
    static Optional<Path> latestCheckpoint(Path jobDir) throws IOException {
        if (!Files.isDirectory(jobDir)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(jobDir)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("chk-"))
                    .filter(d -> Files.exists(d.resolve("_metadata")))
                    .max(
                            Comparator.comparingLong(
                                    d -> Long.parseLong(d.getFileName().toString().substring(4))));
        }
    }
}
