package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.events.ChatEvent;
import io.engram.events.TopicBootstrap;
import io.engram.jobs.TestStores;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.LocalJobs;
import io.engram.services.Await;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * The streaming job stopped in the middle of a stream, with open session windows and per-user
 * state, and started again from its last retained checkpoint, ends with exactly the rows a single
 * uninterrupted pass over the same topic writes.
 */
class ExtractionRestoreIT {

    private static final String TOPIC = "engram.turns.restore-it";
    private static final String DLQ = "engram.turns.restore-it.dlq";

    @TempDir Path flinkHome;

    @Test
    void stoppedMidStreamAndRestoredFromTheCheckpointWritesTheSameRowsAsOnePass() throws Exception {
        PostgresServer postgres = SharedServices.postgres();
        String restored = TestStores.migratedDatabase("restore_it");
        String reference = TestStores.migratedDatabase("restore_ref");
        String bootstrap = SharedServices.kafka().bootstrapServers();
        TopicBootstrap.ensure(bootstrap, List.of(TOPIC, DLQ), 2, (short) 1);
        OpenSearchClient openSearch = TestStores.openSearch();
        IndexBootstrap.ensure(openSearch, "engram-memories-restore-it", 1, 0);
        IndexBootstrap.ensure(openSearch, "engram-memories-restore-ref", 1, 0);
        ExtractionSettings live = settings(restored, "engram-memories-restore-it");

        List<ChatEvent> events = TwoUserStream.events();
        int half = events.size() / 2;
        TestStores.produce(TOPIC, events.subList(0, half));

        Path checkpoints = flinkHome.resolve("checkpoints");
        LocalFlinkCluster first = LocalFlinkCluster.start(flinkHome, 2);
        try {
            LocalJobs.submitExtraction(first, live, checkpoints);
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(120),
                                    () ->
                                            count(restored) > 0
                                                    && TestStores.checkpointed(checkpoints)))
                    .as("first memories written and a checkpoint completed")
                    .isTrue();
            TestStores.produce(TOPIC, events.subList(half, events.size()));
        } finally {
            // Stopped in the middle of the second half: windows are open, state is in flight.
            first.close();
        }
        int afterStop = count(restored);

        try (LocalFlinkCluster second = LocalFlinkCluster.start(flinkHome, 2)) {
            LocalJobs.submitExtraction(second, live, checkpoints);

            // The reference: one bounded pass over the whole topic into another database.
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            ExtractionJob.forKafka(
                            settings(reference, "engram-memories-restore-ref"),
                            true,
                            OffsetsInitializer.earliest())
                    .build(env);
            env.execute("extraction-restore-reference");
            String expected = TwoUserStream.snapshot(postgres, reference);
            assertThat(expected).contains("$15,000");

            java.util.concurrent.atomic.AtomicReference<String> actual =
                    new java.util.concurrent.atomic.AtomicReference<>();
            boolean same =
                    Await.until(
                            Duration.ofSeconds(120),
                            () -> {
                                actual.set(TwoUserStream.snapshot(postgres, restored));
                                return actual.get().equals(expected);
                            });
            assertThat(actual.get())
                    .as("rows after restore (%d memories when stopped)", afterStop)
                    .isEqualTo(expected);
            assertThat(same).isTrue();
        }
    }

    private static ExtractionSettings settings(String url, String alias) {
        return TestSettings.onSharedServices(url, alias, TOPIC, DLQ, 500);
    }

    private static int count(String url) {
        return TestStores.count(url, "select count(*) from memories");
    }
}
