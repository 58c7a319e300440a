package io.engram.jobs.maintenance;

import io.engram.config.EngramConfig;
import io.engram.store.opensearch.OpenSearchAuth;
import java.io.Serializable;

/** What the maintenance tasks need from the configuration, in a form Flink can ship. */
public record MaintenanceSettings(
        EngramConfig.Maintenance jobs,
        String embeddingVersion,
        String modelDir,
        int intraOpThreads,
        EngramConfig.Postgres postgres,
        String openSearchUrl,
        OpenSearchAuth openSearchAuth,
        String indexAlias,
        int shards,
        int replicas,
        EngramConfig.Redis redis)
        implements Serializable {

    public static MaintenanceSettings from(EngramConfig c) {
        return new MaintenanceSettings(
                c.maintenance(),
                c.embedding().version(),
                c.embedding().modelPath(c.home()).toString(),
                c.embedding().intraOpThreads(),
                c.postgres(),
                c.openSearch().url(),
                c.openSearch().auth(),
                c.memoryIndexAlias(),
                c.openSearch().shards(),
                c.openSearch().replicas(),
                c.redis());
    }

    public DecayPolicy decayPolicy() {
        return new DecayPolicy(
                jobs.decayHalfLifeDays(),
                jobs.warmAfterDays(),
                jobs.coldAfterDays(),
                jobs.holdImportance());
    }

    public int parallelism() {
        return jobs.parallelism();
    }

    public MaintenanceSettings withQuota(int perUser) {
        return new MaintenanceSettings(
                jobs.withQuota(perUser),
                embeddingVersion,
                modelDir,
                intraOpThreads,
                postgres,
                openSearchUrl,
                openSearchAuth,
                indexAlias,
                shards,
                replicas,
                redis);
    }

    @Override
    public String toString() {
        return "MaintenanceSettings[alias=" + indexAlias + ", " + jobs + "]";
    }
}
