package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.events.ChatEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TopicBootstrap;
import io.engram.events.TurnEvent;
import io.engram.jobs.TestStores;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.LocalJobs;
import io.engram.services.Await;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.OpenSearchClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

        List<ChatEvent> events = conversations();
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
            String expected = snapshot(postgres, reference);
            assertThat(expected).contains("$15,000");

            java.util.concurrent.atomic.AtomicReference<String> actual =
                    new java.util.concurrent.atomic.AtomicReference<>();
            boolean same =
                    Await.until(
                            Duration.ofSeconds(120),
                            () -> {
                                actual.set(snapshot(postgres, restored));
                                return actual.get().equals(expected);
                            });
            assertThat(actual.get())
                    .as("rows after restore (%d memories when stopped)", afterStop)
                    .isEqualTo(expected);
            assertThat(same).isTrue();
        }
    }

    private static List<ChatEvent> conversations() {
        List<ChatEvent> out = new ArrayList<>();
        String[][] lines = {
            {"My budget for the Hawaii trip is $10,000.", "Great, I'll keep that in mind."},
            {"We want to stay in Maui for ten days.", "Maui is lovely in June."},
            {"My sister Kate is a nurse in Denver.", "Nice!"},
            {"I adopted a beagle named Max last spring.", "Max sounds adorable."},
            {"Actually, make the Hawaii budget $12,000.", "Updated to $12,000."},
            {"I'm allergic to shellfish.", "Noted, no shellfish."},
            {"We booked flights to Maui for June 5.", "Flights on June 5, got it."},
            {"Let's raise the Hawaii budget to $15,000.", "Budget is now $15,000."}
        };
        for (String user : List.of("alice", "bob")) {
            // Both users talk at the same time, a second apart.
            Instant t =
                    Instant.parse("2026-03-15T10:00:00Z").plusSeconds(user.equals("bob") ? 1 : 0);
            for (int session = 0; session < 2; session++) {
                String sid = user + "-s" + session;
                int turn = 0;
                for (int i = session * 4; i < session * 4 + 4; i++) {
                    for (int r = 0; r < 2; r++) {
                        t = t.plusSeconds(30);
                        out.add(
                                new TurnEvent(
                                        "e-" + sid + "-" + turn,
                                        "acme",
                                        "default",
                                        "dev",
                                        user,
                                        sid,
                                        sid + "-" + turn++,
                                        r == 0 ? Role.USER : Role.ASSISTANT,
                                        r == 0 ? Optional.of(user) : Optional.empty(),
                                        lines[i][r],
                                        t));
                    }
                }
                t = t.plusSeconds(30);
                out.add(new SessionEndEvent("end-" + sid, "acme", "default", "dev", user, sid, t));
            }
        }
        // Interleave the two users so both have open windows when the job stops.
        List<ChatEvent> alice = out.subList(0, out.size() / 2);
        List<ChatEvent> bob = out.subList(out.size() / 2, out.size());
        List<ChatEvent> mixed = new ArrayList<>();
        for (int i = 0; i < alice.size(); i++) {
            mixed.add(alice.get(i));
            mixed.add(bob.get(i));
        }
        return mixed;
    }

    private static ExtractionSettings settings(String url, String alias) {
        return TestSettings.onSharedServices(url, alias, TOPIC, DLQ, 500);
    }

    private static int count(String url) {
        return TestStores.count(url, "select count(*) from memories");
    }

    /** Every memory row and event that the write plane decides (system times left out). */
    private static String snapshot(PostgresServer pg, String url) {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password());
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select id, user_id, type, content, status, version, superseded_by,"
                                                + " valid_from, valid_to, array_to_string(source_turn_ids, ',')"
                                                + " from memories order by id")) {
            while (rs.next()) {
                for (int i = 1; i <= 10; i++) {
                    out.append(rs.getString(i)).append('|');
                }
                out.append('\n');
            }
            try (ResultSet events =
                    c.createStatement()
                            .executeQuery(
                                    "select memory_id, kind, version from memory_events order by 1, 2, 3")) {
                while (events.next()) {
                    out.append(events.getString(1))
                            .append(' ')
                            .append(events.getString(2))
                            .append(' ')
                            .append(events.getInt(3))
                            .append('\n');
                }
            }
        } catch (Exception e) {
            return e.toString();
        }
        return out.toString();
    }
}
