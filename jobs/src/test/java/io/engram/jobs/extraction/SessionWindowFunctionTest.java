package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.events.ForgetUserEvent;
import io.engram.events.Role;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SessionWindowFunctionTest {

    private static final Instant T0 = Instant.parse("2026-03-15T10:00:00Z");
    private static final long GAP = 30 * 60_000L;

    private KeyedBroadcastOperatorTestHarness<String, TurnRecord, TurnRecord, WindowBatch> harness;

    @BeforeEach
    void setUp() throws Exception {
        harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new SessionWindowFunction(4, 2, GAP, 200),
                        TurnRecord::sessionKey,
                        Types.STRING,
                        SessionWindowFunction.NOTICES);
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    private static TurnRecord turn(String session, int n, Instant ts) {
        return turn("alice", "default", session, n, ts);
    }

    private static TurnRecord turn(String user, String project, String session, int n, Instant ts) {
        TurnRecord t = new TurnRecord();
        t.tenantId = "acme";
        t.projectId = project;
        t.environment = "dev";
        t.userId = user;
        t.sessionId = session;
        t.turnId = session + "-t" + n;
        t.role = Role.USER;
        t.speaker = "Alice";
        t.content = "turn " + n;
        t.ts = ts;
        return t;
    }

    private static TurnRecord end(String session, Instant ts) {
        TurnRecord t = turn(session, -1, ts);
        t.sessionEnd = true;
        t.turnId = null;
        t.content = null;
        return t;
    }

    /** Entries of the operator's keyed state, over every key and state. */
    private int keyedStateEntries() {
        AbstractStreamOperator<?> operator = (AbstractStreamOperator<?>) harness.getOperator();
        return ((HeapKeyedStateBackend<?>) operator.getKeyedStateBackend())
                .numKeyValueStateEntries();
    }

    private void send(TurnRecord t) throws Exception {
        harness.processElement(new StreamRecord<>(t, t.ts.toEpochMilli()));
    }

    private List<WindowBatch> output() {
        List<WindowBatch> out = new ArrayList<>();
        for (Object o : harness.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                out.add((WindowBatch) r.getValue());
            }
        }
        return out;
    }

    private static List<String> ids(TurnRecord[] turns) {
        return Arrays.stream(turns).map(t -> t.turnId).toList();
    }

    @Test
    void aTurnTheWindowsCannotTakeGoesToTheDeadLettersAndTheNextOnesAreWindowed() throws Exception {
        TurnRecord broken = turn("s1", 1, T0);
        broken.ts = null;
        harness.processElement(new StreamRecord<>(broken, T0.toEpochMilli()));
        for (int i = 2; i <= 5; i++) {
            send(turn("s1", i, T0.plusSeconds(i)));
        }
        List<String> letters = new ArrayList<>();
        var dead = harness.getSideOutput(ParseFunction.DEAD_LETTERS);
        if (dead != null) {
            dead.forEach(r -> letters.add(new String(r.getValue(), StandardCharsets.UTF_8)));
        }
        assertThat(letters)
                .singleElement()
                .satisfies(
                        l ->
                                assertThat(l)
                                        .contains("\"kind\":\"window_failure\"")
                                        .contains("s1-t1")
                                        .contains("NullPointerException"));
        assertThat(output())
                .singleElement()
                .satisfies(
                        b ->
                                assertThat(ids(b.turns))
                                        .containsExactly("s1-t2", "s1-t3", "s1-t4", "s1-t5"));
    }

    @Test
    void emitsEveryNTurnsWithTheLastTurnsAsContext() throws Exception {
        for (int i = 1; i <= 9; i++) {
            send(turn("s1", i, T0.plusSeconds(i)));
        }
        List<WindowBatch> out = output();
        assertThat(out).hasSize(2);
        assertThat(ids(out.get(0).context)).isEmpty();
        assertThat(ids(out.get(0).turns)).containsExactly("s1-t1", "s1-t2", "s1-t3", "s1-t4");
        assertThat(ids(out.get(1).context)).containsExactly("s1-t3", "s1-t4");
        assertThat(ids(out.get(1).turns)).containsExactly("s1-t5", "s1-t6", "s1-t7", "s1-t8");
        assertThat(out).noneMatch(b -> b.sessionEnd);
    }

    @Test
    void explicitEndFlushesTheRestWithTheWholeSessionAndClearsState() throws Exception {
        for (int i = 1; i <= 5; i++) {
            send(turn("s1", i, T0.plusSeconds(i)));
        }
        send(end("s1", T0.plusSeconds(10)));
        List<WindowBatch> out = output();
        assertThat(out).hasSize(2);
        WindowBatch last = out.get(1);
        assertThat(last.sessionEnd).isTrue();
        assertThat(last.endReason).isEqualTo("session_end event");
        assertThat(ids(last.turns)).containsExactly("s1-t5");
        assertThat(ids(last.context)).containsExactly("s1-t3", "s1-t4");
        assertThat(ids(last.sessionTurns)).hasSize(5);
        assertThat(keyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).as("its end-of-input timer goes too").isZero();

        // the end of the input finds nothing left to end
        harness.watermark(Long.MAX_VALUE);
        assertThat(output()).hasSize(2);
    }

    @Test
    void aWatermarkPastTheGapDoesNotEndASession() throws Exception {
        // Another user's turns, hours ahead in event time, carry the subtask's watermark along.
        send(turn("s1", 1, T0));
        send(turn("s1", 2, T0.plusSeconds(60)));
        harness.watermark(T0.plusSeconds(60).toEpochMilli() + 4 * GAP);
        assertThat(output()).isEmpty();
        send(turn("s1", 3, T0.plusSeconds(120)));
        send(end("s1", T0.plusSeconds(130)));
        assertThat(output())
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.endReason).isEqualTo("session_end event");
                            assertThat(ids(b.sessionTurns))
                                    .containsExactly("s1-t1", "s1-t2", "s1-t3");
                        });
    }

    @Test
    void theEndOfABoundedInputEndsEverySession() throws Exception {
        send(turn("s1", 1, T0));
        send(turn("s2", 1, T0.plusSeconds(5)));
        harness.watermark(Long.MAX_VALUE);
        List<WindowBatch> out = output();
        assertThat(out).hasSize(2);
        assertThat(out)
                .allSatisfy(
                        b -> {
                            assertThat(b.sessionEnd).isTrue();
                            assertThat(b.endReason).isEqualTo("end of input");
                        });
        assertThat(out.stream().map(b -> b.sessionId)).containsExactlyInAnyOrder("s1", "s2");
        assertThat(keyedStateEntries()).isZero();
    }

    @Test
    void idleGapIsSeenOnTheNextEventWhenTimersLagBehind() throws Exception {
        // A replay: event time jumps forward before any watermark arrives.
        send(turn("s1", 1, T0));
        send(turn("s1", 2, T0.plusMillis(GAP + 5_000)));
        List<WindowBatch> out = output();
        assertThat(out)
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.sessionEnd).isTrue();
                            assertThat(ids(b.turns)).containsExactly("s1-t1");
                        });
    }

    @Test
    void processingTimeGapEndsALiveSessionThatStopped() throws Exception {
        harness.setProcessingTime(1_000);
        send(turn("s1", 1, T0));
        harness.setProcessingTime(1_000 + GAP);
        assertThat(output()).singleElement().satisfies(b -> assertThat(b.sessionEnd).isTrue());
        assertThat(keyedStateEntries()).isZero();
    }

    @Test
    void sessionsAreIndependent() throws Exception {
        for (int i = 1; i <= 3; i++) {
            send(turn("s1", i, T0.plusSeconds(i)));
            send(turn("s2", i, T0.plusSeconds(i)));
        }
        send(end("s2", T0.plusSeconds(5)));
        List<WindowBatch> out = output();
        assertThat(out)
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.sessionId).isEqualTo("s2");
                            assertThat(ids(b.turns)).containsExactly("s2-t1", "s2-t2", "s2-t3");
                        });
    }

    @Test
    void anEndWithoutTurnsEmitsNothing() throws Exception {
        send(end("s9", T0));
        assertThat(output()).isEmpty();
        assertThat(keyedStateEntries()).isZero();
    }

    @Test
    void aForgetNoticeDropsTheUsersOpenSessionsInItsProjectAndNoOneElses() throws Exception {
        harness.setProcessingTime(1_000);
        for (int i = 1; i <= 5; i++) {
            send(turn("s1", i, T0.plusSeconds(i)));
        }
        send(turn("s2", 1, T0.plusSeconds(6)));
        send(turn("alice", "support", "s3", 1, T0.plusSeconds(7)));
        send(turn("alicea", "default", "s4", 1, T0.plusSeconds(8)));
        send(turn("bob", "default", "s5", 1, T0.plusSeconds(9)));
        assertThat(output()).as("s1's first window").hasSize(1);

        TurnRecord forget = turn("s-", 0, T0.plusSeconds(10));
        forget.forgetUser = true;
        forget.sessionId = null;
        harness.processBroadcastElement(forget, T0.plusSeconds(10).toEpochMilli());

        // s1 (with its context turns) and s2 are gone; their idle timers and the end of the input
        // find nothing to extract. Alice in another project, and Bob, end with their turns.
        send(end("s1", T0.plusSeconds(11)));
        harness.setProcessingTime(1_000 + GAP);
        harness.watermark(Long.MAX_VALUE);
        List<WindowBatch> ended = output().subList(1, output().size());
        assertThat(ended.stream().map(b -> b.userId + "/" + b.projectId + "/" + b.sessionId))
                .containsExactlyInAnyOrder(
                        "alice/support/s3", "alicea/default/s4", "bob/default/s5");
        assertThat(ended).flatExtracting(b -> ids(b.sessionTurns)).doesNotContain("s1-t5", "s2-t1");
        assertThat(keyedStateEntries()).isZero();
    }

    @Test
    void aTurnSentBeforeTheForgetThatComesInAfterTheNoticeIsDropped() throws Exception {
        TurnRecord forget = turn("s-", 0, T0.plusSeconds(10));
        forget.forgetUser = true;
        forget.sessionId = null;
        forget.sentAt = 5_000;
        harness.processBroadcastElement(forget, T0.plusSeconds(10).toEpochMilli());

        TurnRecord late = turn("s1", 1, T0);
        late.sentAt = 4_000;
        send(late);
        TurnRecord otherProject = turn("alice", "support", "s3", 1, T0);
        otherProject.sentAt = 4_000;
        send(otherProject);
        TurnRecord after = turn("s2", 1, T0.plusSeconds(20));
        after.sentAt = 6_000;
        send(after);
        harness.watermark(Long.MAX_VALUE);

        assertThat(output().stream().map(b -> b.projectId + "/" + b.sessionId))
                .containsExactlyInAnyOrder("support/s3", "default/s2");
        assertThat(output()).flatExtracting(b -> ids(b.sessionTurns)).doesNotContain("s1-t1");
    }

    @Test
    void aForgetOfEveryProjectDropsTheUsersSessionsInAllOfThemAndLateTurnsInAnyOfThem()
            throws Exception {
        harness.setProcessingTime(1_000);
        send(turn("alice", "default", "s1", 1, T0.plusSeconds(1)));
        send(turn("alice", "support", "s2", 1, T0.plusSeconds(2)));
        send(turn("alicea", "support", "s3", 1, T0.plusSeconds(3)));
        send(turn("bob", "default", "s4", 1, T0.plusSeconds(4)));
        TurnRecord otherEnvironment = turn("alice", "default", "s5", 1, T0.plusSeconds(5));
        otherEnvironment.environment = "prod";
        send(otherEnvironment);

        TurnRecord forget = turn("alice", ForgetUserEvent.ALL_PROJECTS, "-", 0, T0.plusSeconds(10));
        forget.forgetUser = true;
        forget.sentAt = 5_000;
        harness.processBroadcastElement(forget, T0.plusSeconds(10).toEpochMilli());

        // sent before the forget, read after it, in a project the user never had a session in
        TurnRecord late = turn("alice", "billing", "s6", 1, T0);
        late.sentAt = 4_000;
        send(late);
        TurnRecord after = turn("alice", "billing", "s7", 1, T0.plusSeconds(20));
        after.sentAt = 6_000;
        send(after);
        harness.setProcessingTime(1_000 + GAP);
        harness.watermark(Long.MAX_VALUE);

        assertThat(
                        output().stream()
                                .map(
                                        b ->
                                                b.userId
                                                        + "/"
                                                        + b.projectId
                                                        + "/"
                                                        + b.environment
                                                        + "/"
                                                        + b.sessionId))
                .containsExactlyInAnyOrder(
                        "alicea/support/dev/s3",
                        "bob/default/dev/s4",
                        "alice/default/prod/s5",
                        "alice/billing/dev/s7");
        assertThat(keyedStateEntries()).isZero();
    }
}
