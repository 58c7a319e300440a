package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TopicBootstrap;
import io.engram.events.TurnEvent;
import io.engram.jobs.TestStores;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.LocalJobs;
import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.IndexInspection;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.query_dsl.Query;

/**
 * A finished session's memories are written by the streaming job without waiting for a checkpoint:
 * with checkpoints an hour apart, they reach PostgreSQL and the index while no checkpoint has
 * completed.
 */
class StoreFreshnessIT {

    private static final String TOPIC = "engram.turns.fresh-it";
    private static final String DLQ = "engram.turns.fresh-it.dlq";
    private static final String ALIAS = "engram-memories-fresh-it";

    @TempDir Path flinkHome;

    @Test
    void aSessionsMemoriesAreStoredBeforeAnyCheckpoint() throws Exception {
        String url = TestStores.migratedDatabase("fresh_it");
        String bootstrap = SharedServices.kafka().bootstrapServers();
        TopicBootstrap.ensure(bootstrap, List.of(TOPIC, DLQ), 1, (short) 1);
        IndexBootstrap.ensure(TestStores.openSearch(), ALIAS, 1, 0);
        ExtractionSettings settings =
                TestSettings.onSharedServices(
                        url, ALIAS, TOPIC, DLQ, Duration.ofHours(1).toMillis());

        Path checkpoints = flinkHome.resolve("checkpoints");
        try (LocalFlinkCluster flink = LocalFlinkCluster.start(flinkHome, 2)) {
            LocalJobs.submitExtraction(flink, settings, checkpoints);
            Instant ts = Instant.parse("2026-03-15T10:00:00Z");
            TestStores.produce(
                    TOPIC,
                    List.of(
                            new TurnEvent(
                                    "f1",
                                    "acme",
                                    "default",
                                    "dev",
                                    "fay",
                                    "s1",
                                    "t1",
                                    Role.USER,
                                    Optional.of("Fay"),
                                    "My budget for the Hawaii trip is $10,000.",
                                    ts),
                            new SessionEndEvent(
                                    "f2",
                                    "acme",
                                    "default",
                                    "dev",
                                    "fay",
                                    "s1",
                                    ts.plusSeconds(5))));

            assertThat(
                            Await.until(
                                    Duration.ofSeconds(60),
                                    () ->
                                            TestStores.count(
                                                            url,
                                                            "select count(*) from memories where user_id = 'fay'"
                                                                    + " and content like '%$10,000%'")
                                                    > 0))
                    .as("the session's memory is in PostgreSQL")
                    .isTrue();
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () ->
                                            IndexInspection.count(
                                                            TestStores.openSearch(),
                                                            ALIAS,
                                                            Query.of(
                                                                    q ->
                                                                            q.term(
                                                                                    t ->
                                                                                            t.field(
                                                                                                            "user_id")
                                                                                                    .value(
                                                                                                            FieldValue
                                                                                                                    .of(
                                                                                                                            "fay")))))
                                                    > 0))
                    .as("and in the index")
                    .isTrue();
            assertThat(TestStores.checkpointed(checkpoints))
                    .as("no checkpoint has completed")
                    .isFalse();
        }
    }
}
