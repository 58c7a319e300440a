package io.engram.jobs.extraction;

import io.engram.config.EngramConfig;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.TestEmbedders;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.OpenSearchAuth;
import java.util.Map;

/**
 * Settings for tests: small windows, a one-minute gap, no LLM, services filled in by the caller.
 */
final class TestSettings {

    private TestSettings() {}

    /**
     * On the shared services (PostgreSQL database at {@code jdbcUrl}, Kafka without TLS), with
     * checkpoints every {@code checkpointIntervalMs}.
     */
    static ExtractionSettings onSharedServices(
            String jdbcUrl, String alias, String topic, String dlq, long checkpointIntervalMs) {
        return of(
                jdbcUrl,
                SharedServices.postgres().user(),
                SharedServices.postgres().password(),
                SharedServices.openSearch().url(),
                alias,
                SharedServices.redis().url(),
                SharedServices.kafka().bootstrapServers(),
                Map.of(),
                topic,
                dlq,
                TestEmbedders.MODEL_DIR.toString(),
                checkpointIntervalMs);
    }

    /**
     * {@code kafkaSecurity}: the Kafka clients' TLS settings (empty: none); checkpoints every
     * {@code checkpointIntervalMs}.
     */
    static ExtractionSettings of(
            String postgresUrl,
            String postgresUser,
            String postgresPassword,
            String openSearchUrl,
            String alias,
            String redisUrl,
            String bootstrap,
            Map<String, String> kafkaSecurity,
            String turnsTopic,
            String dlqTopic,
            String modelDir,
            long checkpointIntervalMs) {
        return new ExtractionSettings(
                4,
                2,
                60_000L,
                200,
                1000,
                1,
                4,
                2_000,
                0,
                512,
                "",
                "m",
                "",
                ModelSpec.DEFAULT.version(),
                modelDir,
                1,
                0.9,
                0.7,
                0.5,
                new EngramConfig.Postgres(postgresUrl, postgresUser, postgresPassword, "", 2),
                openSearchUrl,
                OpenSearchAuth.NONE,
                alias,
                EngramConfig.Redis.at(redisUrl, ""),
                bootstrap,
                kafkaSecurity,
                turnsTopic,
                dlqTopic,
                checkpointIntervalMs,
                3,
                true);
    }

    static ExtractionSettings windows(int windowTurns, int overlap, long gapMs) {
        return new ExtractionSettings(
                windowTurns,
                overlap,
                gapMs,
                200,
                1000,
                1,
                4,
                2_000,
                0,
                512,
                "",
                "m",
                "",
                ModelSpec.DEFAULT.version(),
                TestEmbedders.MODEL_DIR.toString(),
                1,
                0.9,
                0.7,
                0.5,
                new EngramConfig.Postgres("", "", "", "", 1),
                "",
                OpenSearchAuth.NONE,
                "alias",
                EngramConfig.Redis.at("", ""),
                "",
                Map.of(),
                "t",
                "t.dlq",
                500,
                3,
                true);
    }
}
