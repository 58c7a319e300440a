package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.embedding.TestEmbedders;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.ForgetUserEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.jobs.store.MemoryCodec;
import io.engram.jobs.store.OtherWrites;
import io.engram.jobs.store.PastForgets;
import io.engram.jobs.store.SeenTurns;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryType;
import io.engram.store.MemoryStoreWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole extraction topology on a Flink mini cluster and no service: a bounded source of topic
 * records, collecting sinks for the memory changes and the dead letters, the production extractor
 * and embedding model, in-memory look-ups. Checks what the stages do together: a record no stage
 * can read goes to the dead letters and the next ones still become memories; a session's end gives
 * its facts, its excerpts and one summary of the session; a forget reaches both broadcast
 * operators, so turns sent before it never become memories while the user's later turns do.
 */
class ExtractionTopologyTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final Instant T0 = Instant.parse("2026-03-15T10:00:00Z");

    /** What each collecting sink received, by its name. */
    static final Map<String, ConcurrentLinkedQueue<byte[]>> COLLECTED = new ConcurrentHashMap<>();

    /** The records the source emits, in order (the generator reads them by index). */
    static final List<RawRecord> RECORDS = new ArrayList<>();

    /** A sink that keeps what it receives, in this JVM. */
    static final class Collecting implements Sink<byte[]> {
        private final String name;

        Collecting(String name) {
            this.name = name;
            COLLECTED.put(name, new ConcurrentLinkedQueue<>());
        }

        @Override
        public SinkWriter<byte[]> createWriter(WriterInitContext context) {
            ConcurrentLinkedQueue<byte[]> into = COLLECTED.get(name);
            return new SinkWriter<>() {
                @Override
                public void write(byte[] element, Context context) {
                    into.add(element);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    private static void add(ChatEvent event, long sentAt) {
        RECORDS.add(
                new RawRecord("turns", 0, RECORDS.size(), null, EventCodec.encode(event), sentAt));
    }

    private static TurnEvent turn(
            String user, String session, String id, String speaker, String text, int minute) {
        return new TurnEvent(
                user + "-" + session + "-" + id,
                "acme",
                "default",
                "dev",
                user,
                session,
                id,
                Role.USER,
                Optional.of(speaker),
                text,
                T0.plusSeconds(10L * minute));
    }

    private static SessionEndEvent end(String user, String session, int minute) {
        return new SessionEndEvent(
                user + "-" + session + "-end",
                "acme",
                "default",
                "dev",
                user,
                session,
                T0.plusSeconds(10L * minute));
    }

    @Test
    void deadLettersSessionEndsAndForgetsThroughTheWholeTopology() throws Exception {
        RECORDS.clear();
        long sent = 1_000;
        // A record no stage can read, first: everything after it must still flow.
        RECORDS.add(
                new RawRecord(
                        "turns",
                        0,
                        0,
                        null,
                        "{\"schema_version\":1,\"type\":\"turn\",\"user_id\":\"x\",\"ts\":\"+999999999-12-31T23:59:59Z\"}"
                                .getBytes(StandardCharsets.UTF_8),
                        sent));
        // Alice's session, ended (turns ten seconds apart, within the one-minute idle gap).
        add(
                turn(
                        "alice",
                        "s1",
                        "t1",
                        "Alice",
                        "I moved to Leeds last month with my sister Ana.",
                        0),
                sent++);
        add(
                turn("alice", "s1", "t2", "Alice", "My budget for the Hawaii trip is $10,000.", 1),
                sent++);
        add(end("alice", "s1", 2), sent++);
        // Carol's open session, then a forget of Carol, then the session's end and a new session.
        add(
                turn("carol", "s1", "t1", "Carol", "I work as a nurse at the Royal Infirmary.", 0),
                sent++);
        add(turn("carol", "s1", "t2", "Carol", "My dog is called Biscuit.", 1), sent++);
        sent += 1_000;
        add(
                new ForgetUserEvent(
                        "carol-forget", "acme", "default", "dev", "carol", T0.plusSeconds(25)),
                sent);
        sent += 1_000;
        add(end("carol", "s1", 3), sent++);
        add(
                turn("carol", "s2", "t1", "Carol", "I started learning the cello this week.", 5),
                sent++);
        add(end("carol", "s2", 6), sent++);

        ExtractionSettings settings =
                TestSettings.of(
                        "jdbc:postgresql://127.0.0.1:1/none",
                        "none",
                        "none",
                        "http://127.0.0.1:1",
                        "memories",
                        "redis://127.0.0.1:1",
                        "127.0.0.1:1",
                        Map.of(),
                        "turns",
                        "turns.dlq",
                        TestEmbedders.MODEL_DIR.toString(),
                        60_000);
        ExtractionJob.Parts parts = parts();
        int count = RECORDS.size();
        DataGeneratorSource<RawRecord> source =
                new DataGeneratorSource<>(
                        index -> RECORDS.get(index.intValue()),
                        count,
                        TypeInformation.of(RawRecord.class));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        new ExtractionJob(
                        source,
                        new Collecting("dead-letters"),
                        new Collecting("memories"),
                        settings,
                        parts)
                .build(env);
        env.execute("topology-test");

        List<MemoryChange> changes = new ArrayList<>();
        for (byte[] b : COLLECTED.get("memories")) {
            MemoryStoreWriter.FromTurns batch = MemoryCodec.decodeFromTurns(b);
            changes.addAll(batch.changes());
        }
        List<String> alice = contents(changes, "alice");
        List<String> carol = contents(changes, "carol");
        System.out.println("alice: " + alice + "\ncarol: " + carol);

        assertThat(COLLECTED.get("dead-letters")).hasSize(1);
        assertThat(new String(COLLECTED.get("dead-letters").peek(), StandardCharsets.UTF_8))
                .contains("+999999999");

        assertThat(facts(changes, "alice", MemoryType.SEMANTIC))
                .containsExactlyInAnyOrder(
                        "Alice moved to Leeds in February 2026.",
                        "Alice's budget for the Hawaii trip is $10,000.");
        List<String> summaries =
                facts(changes, "alice", MemoryType.EPISODIC).stream()
                        .filter(c -> c.startsWith("Conversation of Alice"))
                        .toList();
        assertThat(summaries).as("one summary of the session").hasSize(1);
        assertThat(summaries.get(0)).contains("Leeds").contains("Hawaii");

        // Nothing Carol said before the forget, whatever order the notice and her turns reached
        // the window and dedup operators in; what she said after it is remembered.
        assertThat(carol)
                .isNotEmpty()
                .noneSatisfy(c -> assertThat(c).containsAnyOf("nurse", "Biscuit", "Infirmary"));
        assertThat(carol).contains("Carol started learning the cello in the week of 9 March 2026.");
    }

    /** The contents of the user's changes of one type. */
    private static List<String> facts(List<MemoryChange> changes, String user, MemoryType type) {
        return changes.stream()
                .filter(c -> c.memory().scope().userId().equals(user))
                .filter(c -> c.memory().type() == type)
                .map(c -> c.memory().content())
                .toList();
    }

    /**
     * The production extractor and model; no memories known, no other writes, no past forgets, no
     * turns seen. Static: what the job serialises must not capture the test instance.
     */
    private static ExtractionJob.Parts parts() {
        return new ExtractionJob.Parts(
                Extractors::new,
                s -> TestEmbedders.defaultModel(),
                () -> scope -> List.of(),
                () ->
                        new OtherWrites.Counts() {
                            @Override
                            public long of(io.engram.memory.Scope scope) {
                                return 0;
                            }

                            @Override
                            public void close() {}
                        },
                () ->
                        new PastForgets.Lookup() {
                            @Override
                            public long lastForget(io.engram.memory.Scope scope) {
                                return -1;
                            }

                            @Override
                            public void close() {}
                        },
                SeenTurns.NEVER);
    }

    private static List<String> contents(List<MemoryChange> changes, String user) {
        return changes.stream()
                .filter(c -> c.memory().scope().userId().equals(user))
                .map(c -> c.memory().content())
                .toList();
    }
}
