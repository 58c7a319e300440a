package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.jobs.store.MemoryCodec;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DedupFunctionTest {

    private static OnnxEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = TestEmbedders.defaultModel();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static FactBatch batch(
            String user, String session, String turnId, String content, Instant ts) {
        FactBatch b = new FactBatch();
        b.tenantId = "acme";
        b.projectId = "default";
        b.environment = "dev";
        b.userId = user;
        b.sessionId = session;
        FactRecord f = new FactRecord();
        f.type = MemoryType.SEMANTIC;
        f.content = content;
        f.importance = 0.7;
        f.tags = new String[] {"travel"};
        f.sourceTurnIds = new String[] {turnId};
        f.validFrom = ts;
        f.vector = embedder.embed(content);
        b.facts = new FactRecord[] {f};
        return b;
    }

    private static List<MemoryChange> changes(
            KeyedOneInputStreamOperatorTestHarness<String, FactBatch, byte[]> h) {
        List<MemoryChange> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                out.addAll(MemoryCodec.decodeChanges((byte[]) r.getValue()));
            }
        }
        return out;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, FactBatch, byte[]> harness()
            throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new DedupFunction(
                                        TestSettings.windows(4, 2, 60_000),
                                        s -> scope -> List.of())),
                        FactBatch::userKey,
                        Types.STRING);
        h.open();
        return h;
    }

    @Test
    void newBudgetInALaterSessionSupersedesTheOldOne() throws Exception {
        try (var h = harness()) {
            Instant t1 = Instant.parse("2026-03-15T10:00:00Z");
            Instant t2 = Instant.parse("2026-04-02T09:00:00Z");
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s1",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $10,000.",
                                    t1)));
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s2",
                                    "t9",
                                    "Alice's budget for the Hawaii trip is $15,000.",
                                    t2)));
            List<MemoryChange> changes = changes(h);
            assertThat(changes).hasSize(2);
            assertThat(changes.get(0)).isInstanceOf(MemoryChange.Created.class);
            MemoryChange.Superseded s = (MemoryChange.Superseded) changes.get(1);
            assertThat(s.old().id()).isEqualTo(changes.get(0).memory().id());
            assertThat(s.old().status()).isEqualTo(MemoryStatus.SUPERSEDED);
            assertThat(s.old().validTo()).contains(t2);
            assertThat(s.old().supersededBy()).contains(s.memory().id());
            assertThat(s.memory().content()).contains("$15,000");
        }
    }

    @Test
    void sameFactAgainIsANoopAndUsersNeverSeeEachOthersMemories() throws Exception {
        try (var h = harness()) {
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s1",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $10,000.",
                                    t)));
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s1",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $10,000.",
                                    t)));
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "bob",
                                    "s7",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $12,000.",
                                    t)));
            List<MemoryChange> changes = changes(h);
            assertThat(changes.get(0)).isInstanceOf(MemoryChange.Created.class);
            assertThat(changes.get(1)).isInstanceOf(MemoryChange.Reinforced.class);
            // Bob's fact is compared only with Bob's memories: created, not superseding Alice's.
            assertThat(changes.get(2)).isInstanceOf(MemoryChange.Created.class);
            assertThat(changes.get(2).memory().scope().userId()).isEqualTo("bob");
            assertThat(h.numKeyedStateEntries()).isEqualTo(2);
        }
    }

    @Test
    void aForgetNoticeDropsTheUsersStateSoNothingIsDecidedAgainstIt() throws Exception {
        try (var h = harness()) {
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s1",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $10,000.",
                                    t)));
            assertThat(h.numKeyedStateEntries()).isEqualTo(1);
            FactBatch forget = batch("alice", "s1", "t1", "x", t);
            forget.forgetUser = true;
            forget.facts = new FactRecord[0];
            h.processElement(new StreamRecord<>(forget));
            assertThat(h.numKeyedStateEntries()).isZero();
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s2",
                                    "t9",
                                    "Alice's budget for the Hawaii trip is $15,000.",
                                    t.plusSeconds(60))));
            List<MemoryChange> changes = changes(h);
            assertThat(changes).hasSize(2);
            assertThat(changes.get(1))
                    .as("nothing left to supersede")
                    .isInstanceOf(MemoryChange.Created.class);
        }
    }

    @Test
    void aWindowSentBeforeTheForgetThatArrivesAfterTheNoticeIsDropped() throws Exception {
        try (var h = harness()) {
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            FactBatch forget = batch("alice", "s1", "t1", "x", t);
            forget.forgetUser = true;
            forget.facts = new FactRecord[0];
            forget.sentAt = 5_000;
            h.processElement(new StreamRecord<>(forget));

            FactBatch cutBefore = batch("alice", "s1", "t1", "Alice is allergic to peanuts.", t);
            cutBefore.sentAt = 4_000;
            h.processElement(new StreamRecord<>(cutBefore));
            FactBatch otherUser = batch("bob", "s7", "t7", "Bob is allergic to shellfish.", t);
            otherUser.sentAt = 4_000;
            h.processElement(new StreamRecord<>(otherUser));
            FactBatch sentAfter = batch("alice", "s2", "t2", "Alice's daughter is called Mia.", t);
            sentAfter.sentAt = 6_000;
            h.processElement(new StreamRecord<>(sentAfter));

            assertThat(changes(h))
                    .extracting(c -> c.memory().content())
                    .containsExactly(
                            "Bob is allergic to shellfish.", "Alice's daughter is called Mia.");
        }
    }

    @Test
    void stateSurvivesASnapshotAndRestore() throws Exception {
        Instant t = Instant.parse("2026-03-15T10:00:00Z");
        org.apache.flink.runtime.checkpoint.OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.processElement(
                    new StreamRecord<>(
                            batch(
                                    "alice",
                                    "s1",
                                    "t1",
                                    "Alice's budget for the Hawaii trip is $10,000.",
                                    t)));
            snapshot = h.snapshot(1, 1);
        }
        var restored =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new DedupFunction(
                                        TestSettings.windows(4, 2, 60_000),
                                        s -> scope -> List.of())),
                        FactBatch::userKey,
                        Types.STRING);
        restored.initializeState(snapshot);
        restored.open();
        restored.processElement(
                new StreamRecord<>(
                        batch(
                                "alice",
                                "s2",
                                "t5",
                                "Alice's budget for the Hawaii trip is $15,000.",
                                t.plusSeconds(99))));
        assertThat(changes(restored)).singleElement().isInstanceOf(MemoryChange.Superseded.class);
        restored.close();
    }
}
