package io.engram.jobs.extraction;

import io.engram.config.EngramConfig;
import io.engram.store.opensearch.OpenSearchAuth;
import java.io.Serializable;
import java.util.Map;
import java.util.Properties;

/**
 * What the extraction job's operators need from the configuration, in a form Flink can ship to its
 * task managers. Secrets travel inside the job graph, as with any Flink connector.
 */
public record ExtractionSettings(
        int windowTurns,
        int overlapTurns,
        long idleGapMs,
        int maxSessionTurns,
        int knownPerUser,
        int parallelism,
        int llmConcurrency,
        long llmTimeoutMs,
        int llmMaxRetries,
        int llmMaxTokens,
        String llmUrl,
        String llmModel,
        String llmApiKey,
        String embeddingVersion,
        String modelDir,
        int intraOpThreads,
        double updateSimilarity,
        double relatedSimilarity,
        double supersedeMinSimilarity,
        EngramConfig.Postgres postgres,
        String openSearchUrl,
        OpenSearchAuth openSearchAuth,
        String indexAlias,
        EngramConfig.Redis redis,
        String bootstrapServers,
        Map<String, String> kafkaSecurity,
        String turnsTopic,
        String dlqTopic,
        long checkpointIntervalMs,
        int excerptTurns,
        boolean facts)
        implements Serializable {

    public static ExtractionSettings from(EngramConfig c) {
        EngramConfig.Extraction e = c.extraction();
        return new ExtractionSettings(
                e.windowTurns(),
                e.overlapTurns(),
                e.idleGapMinutes() * 60_000L,
                e.maxSessionTurns(),
                e.knownMemoriesPerUser(),
                e.parallelism(),
                e.llmConcurrency(),
                c.llm().timeoutMs(),
                c.llm().maxRetries(),
                c.llm().maxTokens(),
                c.llm().url(),
                c.llm().model(),
                c.llm().apiKey(),
                c.embedding().version(),
                c.embedding().modelPath(c.home()).toString(),
                c.embedding().intraOpThreads(),
                c.dedup().updateSimilarity(),
                c.dedup().relatedSimilarity(),
                c.dedup().supersedeMinSimilarity(),
                c.postgres(),
                c.openSearch().url(),
                c.openSearch().auth(),
                c.memoryIndexAlias(),
                c.redis(),
                c.kafka().bootstrapServers(),
                Map.copyOf(c.kafka().security()),
                c.kafka().turnsTopic(),
                c.kafka().dlqTopic(),
                e.checkpointIntervalMs(),
                e.excerptTurns(),
                e.facts());
    }

    /** The Kafka clients' TLS and login settings, as client properties. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        p.putAll(kafkaSecurity);
        return p;
    }

    public boolean llmEnabled() {
        return llmUrl != null && !llmUrl.isEmpty();
    }

    @Override
    public String toString() {
        return "ExtractionSettings[window="
                + windowTurns
                + ", overlap="
                + overlapTurns
                + ", idleGapMs="
                + idleGapMs
                + ", llm="
                + (llmEnabled() ? llmUrl : "off")
                + ", alias="
                + indexAlias
                + "]";
    }
}
