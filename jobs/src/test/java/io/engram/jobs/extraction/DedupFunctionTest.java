package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.events.ForgetUserEvent;
import io.engram.jobs.store.KnownMemorySource;
import io.engram.jobs.store.MemoryCodec;
import io.engram.jobs.store.OtherWrites;
import io.engram.jobs.store.PastForgets;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
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

    /** A window of Alice's with one fact: her budget for the Hawaii trip. */
    private static StreamRecord<FactBatch> alicesBudget(
            String session, String turnId, String amount, Instant ts) {
        return new StreamRecord<>(
                batch(
                        "alice",
                        session,
                        turnId,
                        "Alice's budget for the Hawaii trip is " + amount + ".",
                        ts));
    }

    /** A forget notice of the user of tenant acme, environment dev, in {@code project}. */
    private static TurnRecord forget(String user, String project, long sentAt) {
        TurnRecord notice = new TurnRecord();
        notice.tenantId = "acme";
        notice.projectId = project;
        notice.environment = "dev";
        notice.userId = user;
        notice.forgetUser = true;
        notice.sentAt = sentAt;
        return notice;
    }

    private static List<MemoryChange> changes(
            KeyedBroadcastOperatorTestHarness<String, FactBatch, TurnRecord, byte[]> h) {
        List<MemoryChange> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                out.addAll(MemoryCodec.decodeFromTurns((byte[]) r.getValue()).changes());
            }
        }
        return out;
    }

    /** A dedup operator with nothing known of any user yet, not opened. */
    private static KeyedBroadcastOperatorTestHarness<String, FactBatch, TurnRecord, byte[]>
            unopened() throws Exception {
        return unopened(() -> scope -> List.of(), () -> scope -> -1);
    }

    private static KeyedBroadcastOperatorTestHarness<String, FactBatch, TurnRecord, byte[]>
            unopened(KnownMemorySource source, OtherWrites others) throws Exception {
        return unopened(source, others, () -> scope -> -1);
    }

    private static KeyedBroadcastOperatorTestHarness<String, FactBatch, TurnRecord, byte[]>
            unopened(KnownMemorySource source, OtherWrites others, PastForgets forgets)
                    throws Exception {
        return new KeyedBroadcastOperatorTestHarness<>(
                new CoBroadcastWithKeyedOperator<>(
                        new DedupFunction(
                                TestSettings.windows(4, 2, 60_000), source, others, forgets),
                        List.of(DedupFunction.NOTICES)),
                FactBatch::userKey,
                Types.STRING,
                1,
                1,
                0);
    }

    private static KeyedBroadcastOperatorTestHarness<String, FactBatch, TurnRecord, byte[]>
            harness() throws Exception {
        var h = unopened();
        h.open();
        return h;
    }

    /** Entries of the operator's keyed state, over every key and state. */
    private static int keyedStateEntries(AbstractStreamOperatorTestHarness<?> h) {
        AbstractStreamOperator<?> operator = (AbstractStreamOperator<?>) h.getOperator();
        return ((HeapKeyedStateBackend<?>) operator.getKeyedStateBackend())
                .numKeyValueStateEntries();
    }

    @Test
    void newBudgetInALaterSessionSupersedesTheOldOne() throws Exception {
        try (var h = harness()) {
            Instant t1 = Instant.parse("2026-03-15T10:00:00Z");
            Instant t2 = Instant.parse("2026-04-02T09:00:00Z");
            h.processElement(alicesBudget("s1", "t1", "$10,000", t1));
            h.processElement(alicesBudget("s2", "t9", "$15,000", t2));
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
            h.processElement(alicesBudget("s1", "t1", "$10,000", t));
            h.processElement(alicesBudget("s1", "t1", "$10,000", t));
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
            assertThat(keyedStateEntries(h))
                    .as("memories and audited forget time of each")
                    .isEqualTo(4);
        }
    }

    @Test
    void aForgetNoticeDropsTheUsersStateSoNothingIsDecidedAgainstIt() throws Exception {
        try (var h = harness()) {
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            h.processElement(alicesBudget("s1", "t1", "$10,000", t));
            assertThat(keyedStateEntries(h)).as("memories and audited forget time").isEqualTo(2);
            h.processBroadcastElement(new StreamRecord<>(forget("alice", "default", -1)));
            assertThat(keyedStateEntries(h)).isZero();
            h.processElement(alicesBudget("s2", "t9", "$15,000", t.plusSeconds(60)));
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
            h.processBroadcastElement(new StreamRecord<>(forget("alice", "default", 5_000)));

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
    void aWindowSentBeforeTheAuditedForgetIsDroppedWithoutItsNotice() throws Exception {
        // A replay from before the forget: its notice is not read yet, the audit knows of it.
        java.util.Map<String, Integer> lookups = new java.util.concurrent.ConcurrentHashMap<>();
        PastForgets audit =
                () ->
                        scope -> {
                            lookups.merge(scope.userId(), 1, Integer::sum);
                            return scope.userId().equals("alice") ? 5_000 : -1;
                        };
        try (var h = unopened(() -> scope -> List.of(), () -> scope -> -1, audit)) {
            h.open();
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            FactBatch before = batch("alice", "s1", "t1", "Alice is allergic to peanuts.", t);
            before.sentAt = 4_000;
            FactBatch alsoBefore = batch("alice", "s1", "t2", "Alice's son is called Tom.", t);
            alsoBefore.sentAt = 5_000;
            FactBatch bobs = batch("bob", "s7", "t7", "Bob is allergic to shellfish.", t);
            bobs.sentAt = 4_000;
            FactBatch after = batch("alice", "s2", "t3", "Alice moved to Leeds.", t);
            after.sentAt = 6_000;
            for (FactBatch b : List.of(before, alsoBefore, bobs, after)) {
                h.processElement(new StreamRecord<>(b));
            }

            assertThat(changes(h))
                    .extracting(c -> c.memory().content())
                    .containsExactly("Bob is allergic to shellfish.", "Alice moved to Leeds.");
            assertThat(lookups)
                    .as("the audit is asked once per user")
                    .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("alice", 1, "bob", 1));

            // a forget notice drops the answer with the state: the audit is asked again
            h.processBroadcastElement(new StreamRecord<>(forget("alice", "default", 7_000)));
            FactBatch later = batch("alice", "s3", "t4", "Alice plays chess.", t);
            later.sentAt = 8_000;
            h.processElement(new StreamRecord<>(later));
            assertThat(lookups.get("alice")).isEqualTo(2);
        }
    }

    @Test
    void stateSurvivesASnapshotAndRestore() throws Exception {
        Instant t = Instant.parse("2026-03-15T10:00:00Z");
        org.apache.flink.runtime.checkpoint.OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.processElement(alicesBudget("s1", "t1", "$10,000", t));
            snapshot = h.snapshot(1, 1);
        }
        var restored = unopened();
        restored.initializeState(snapshot);
        restored.open();
        restored.processElement(alicesBudget("s2", "t5", "$15,000", t.plusSeconds(99)));
        assertThat(changes(restored)).singleElement().isInstanceOf(MemoryChange.Superseded.class);
        restored.close();
    }

    @Test
    void aForgetOfEveryProjectDropsTheUsersStateInAllOfThemAndLateWindowsInAnyOfThem()
            throws Exception {
        try (var h = harness()) {
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            FactBatch inDefault = batch("alice", "s1", "t1", "Alice is allergic to peanuts.", t);
            FactBatch inSupport = batch("alice", "s2", "t2", "Alice's printer jams.", t);
            inSupport.projectId = "support";
            FactBatch bobs = batch("bob", "s3", "t3", "Bob plays the cello.", t);
            for (FactBatch b : List.of(inDefault, inSupport, bobs)) {
                h.processElement(new StreamRecord<>(b));
            }
            assertThat(keyedStateEntries(h))
                    .as("memories and audited forget time of each")
                    .isEqualTo(6);

            h.processBroadcastElement(
                    new StreamRecord<>(forget("alice", ForgetUserEvent.ALL_PROJECTS, 5_000)));
            assertThat(keyedStateEntries(h)).as("Bob's state only").isEqualTo(2);

            // cut before the forget in a project she had no memory in, arriving after it
            FactBatch late = batch("alice", "s4", "t4", "Alice's son is called Tom.", t);
            late.projectId = "billing";
            late.sentAt = 4_000;
            h.processElement(new StreamRecord<>(late));
            FactBatch after = batch("alice", "s5", "t5", "Alice moved to Leeds.", t);
            after.projectId = "billing";
            after.sentAt = 6_000;
            h.processElement(new StreamRecord<>(after));

            assertThat(changes(h))
                    .extracting(c -> c.memory().content())
                    .containsExactly(
                            "Alice is allergic to peanuts.",
                            "Alice's printer jams.",
                            "Bob plays the cello.",
                            "Alice moved to Leeds.");
        }
    }

    /** How often others changed Alice's memories, as Redis would say. */
    private static final AtomicLong OTHER_WRITES = new AtomicLong();

    @Test
    void aForgetLeavesNoStateOfTheUserWhenOtherWritersAreCounted() throws Exception {
        OTHER_WRITES.set(3);
        try (var h = unopened(() -> scope -> List.of(), () -> scope -> OTHER_WRITES.get())) {
            h.open();
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            h.processElement(new StreamRecord<>(batch("alice", "s1", "t1", "Alice likes tea.", t)));
            h.processElement(new StreamRecord<>(batch("bob", "s2", "t2", "Bob likes tea.", t)));
            assertThat(keyedStateEntries(h))
                    .as("memories, load count and audited forget time of each")
                    .isEqualTo(6);
            h.processBroadcastElement(new StreamRecord<>(forget("alice", "default", -1)));
            h.processBroadcastElement(
                    new StreamRecord<>(forget("bob", ForgetUserEvent.ALL_PROJECTS, -1)));
            assertThat(keyedStateEntries(h)).isZero();
        }
    }

    @Test
    void aUserChangedByAnotherWriterIsLoadedAgainBeforeTheNextDecision() throws Exception {
        OTHER_WRITES.set(0);
        try (var h = unopened(() -> scope -> List.of(), () -> scope -> OTHER_WRITES.get())) {
            h.open();
            Instant t = Instant.parse("2026-03-15T10:00:00Z");
            h.processElement(alicesBudget("s1", "t1", "$10,000", t));
            // consolidation archived it (the index no longer has it) and said so
            OTHER_WRITES.incrementAndGet();
            h.processElement(alicesBudget("s2", "t2", "$15,000", t.plusSeconds(60)));
            // nobody else wrote since: the state stands
            h.processElement(alicesBudget("s3", "t3", "$20,000", t.plusSeconds(120)));
            List<MemoryChange> changes = changes(h);
            assertThat(changes).hasSize(3);
            assertThat(changes.get(1))
                    .as("the archived budget is not superseded again")
                    .isInstanceOf(MemoryChange.Created.class);
            assertThat(changes.get(2)).isInstanceOf(MemoryChange.Superseded.class);
        }
    }
}
