package io.engram.jobs.extraction;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Cuts one session's turns into extraction windows: a batch every N turns (with the last few turns
 * of the previous batch as context), and a final batch when the session ends — by an explicit end
 * event, after an idle gap, or at the end of a bounded input. The gap is checked on every event
 * (replays carry old timestamps) and by a processing-time timer (a live session that simply stops).
 * The watermark does not end a session before the input ends: it is shared by every session of a
 * subtask, so one user's event time running ahead of another's would cut the other's session. All
 * state of the session, its timers included, is cleared when it ends.
 *
 * <p>Forget notices come in on the broadcast input: every open session of the forgotten user in
 * that project (or in every project) is dropped on every subtask, unextracted turns and context
 * included, and for {@link #FORGET_HORIZON} a turn of the user sent before the forget is dropped
 * when it comes in later (it may sit on another partition than the notice), so turns sent before a
 * forget do not become memories after it.
 */
public class SessionWindowFunction
        extends KeyedBroadcastProcessFunction<String, TurnRecord, TurnRecord, WindowBatch> {

    private static final long serialVersionUID = 1L;

    /**
     * The broadcast state: when each forgotten user (session key prefix: tenant, project or {@code
     * *} for all, environment, user) was forgotten, epoch ms of the notice.
     */
    public static final MapStateDescriptor<String, Long> NOTICES =
            new MapStateDescriptor<>("forgotten-users", Types.STRING, Types.LONG);

    /**
     * How long a forget is held against turns sent before it that come in late: far longer than
     * partitions drift apart while the job keeps up. A replay of the topic from before a forget
     * older than this is not covered.
     */
    public static final java.time.Duration FORGET_HORIZON = java.time.Duration.ofHours(24);

    private static final ValueStateDescriptor<Long> LAST_ARRIVAL =
            new ValueStateDescriptor<>("lastArrival", Types.LONG);

    private final int windowTurns;
    private final int overlapTurns;
    private final long idleGapMs;
    private final int maxSessionTurns;

    private transient ListState<TurnRecord> pending;
    private transient ListState<TurnRecord> overlap;
    private transient ListState<TurnRecord> session;
    private transient ValueState<Integer> pendingCount;
    private transient ValueState<Integer> sessionCount;
    private transient ValueState<Long> lastEventTs;
    private transient ValueState<Long> lastArrival;
    private transient Counter windows;
    private transient Counter forgottenSessions;
    private transient Counter forgottenTurns;
    private transient Counter deadLetters;
    private transient Counter duplicateTurns;

    public SessionWindowFunction(
            int windowTurns, int overlapTurns, long idleGapMs, int maxSessionTurns) {
        this.windowTurns = windowTurns;
        this.overlapTurns = overlapTurns;
        this.idleGapMs = idleGapMs;
        this.maxSessionTurns = maxSessionTurns;
    }

    @Override
    public void open(OpenContext context) {
        TypeInformation<TurnRecord> type = TypeInformation.of(TurnRecord.class);
        pending = getRuntimeContext().getListState(new ListStateDescriptor<>("pending", type));
        overlap = getRuntimeContext().getListState(new ListStateDescriptor<>("overlap", type));
        session = getRuntimeContext().getListState(new ListStateDescriptor<>("session", type));
        pendingCount =
                getRuntimeContext().getState(new ValueStateDescriptor<>("pendingCount", Types.INT));
        sessionCount =
                getRuntimeContext().getState(new ValueStateDescriptor<>("sessionCount", Types.INT));
        lastEventTs =
                getRuntimeContext().getState(new ValueStateDescriptor<>("lastEventTs", Types.LONG));
        lastArrival = getRuntimeContext().getState(LAST_ARRIVAL);
        windows = getRuntimeContext().getMetricGroup().counter("windows");
        forgottenSessions = getRuntimeContext().getMetricGroup().counter("forgottenSessions");
        forgottenTurns = getRuntimeContext().getMetricGroup().counter("forgottenTurns");
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
        duplicateTurns = getRuntimeContext().getMetricGroup().counter("duplicateTurns");
    }

    /**
     * Remembers when the notice's user was forgotten and drops every open session of the user in
     * its project, without emitting anything.
     */
    @Override
    public void processBroadcastElement(TurnRecord notice, Context ctx, Collector<WindowBatch> out)
            throws Exception {
        if (!notice.forgetUser) {
            return;
        }
        notice.rememberIn(ctx.getBroadcastState(NOTICES));
        // Every open session has an arrival time; the backend makes each key current in turn.
        ctx.applyToKeyedState(
                LAST_ARRIVAL,
                (key, arrival) -> {
                    if (notice.covers(key)) {
                        clear();
                        forgottenSessions.inc();
                    }
                });
    }

    /**
     * Takes one turn or session end; one this operator cannot take goes to the dead-letter output
     * and the next is taken as usual.
     */
    @Override
    public void processElement(TurnRecord turn, ReadOnlyContext ctx, Collector<WindowBatch> out)
            throws Exception {
        try {
            accept(turn, ctx, out);
        } catch (RuntimeException e) {
            deadLetters.inc();
            ctx.output(ParseFunction.DEAD_LETTERS, StageLetters.forTurn(turn, e));
        }
    }

    void accept(TurnRecord turn, ReadOnlyContext ctx, Collector<WindowBatch> out) throws Exception {
        if (TurnRecord.sentBeforeForget(
                ctx.getBroadcastState(NOTICES),
                turn.sentAt,
                turn.tenantId,
                turn.projectId,
                turn.environment,
                turn.userId)) {
            forgottenTurns.inc();
            return;
        }
        if (turn.sessionEnd) {
            endSession(turn, "session_end event", ctx.timerService(), out);
            return;
        }
        if (alreadyHeld(turn.turnId)) {
            // The same turn sent again while its session is open (a client's retry).
            duplicateTurns.inc();
            return;
        }
        Long last = lastEventTs.value();
        long ts = turn.ts.toEpochMilli();
        if (last != null && ts - last >= idleGapMs) {
            endSession(turn, "idle gap", ctx.timerService(), out);
        }
        pending.add(turn);
        int count = increment(pendingCount);
        if (increment(sessionCount) <= maxSessionTurns) {
            session.add(turn);
        }
        lastEventTs.update(last == null ? ts : Math.max(last, ts));
        long now = ctx.timerService().currentProcessingTime();
        lastArrival.update(now);
        // Fires only when the watermark reaches its maximum: the end of a bounded input.
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        ctx.timerService().registerProcessingTimeTimer(now + idleGapMs);

        if (count >= windowTurns) {
            List<TurnRecord> turns = list(pending);
            out.collect(batch(turn, list(overlap), turns, false, null, List.of()));
            windows.inc();
            overlap.update(turns.subList(Math.max(0, turns.size() - overlapTurns), turns.size()));
            pending.clear();
            pendingCount.clear();
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<WindowBatch> out)
            throws Exception {
        if (ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            // Only the end of a bounded input; any other watermark timer was left by an earlier
            // version of the job (from a savepoint), which ended sessions by watermark.
            if (timestamp == Long.MAX_VALUE) {
                endSessionSoFar("end of input", ctx, out);
            }
            return;
        }
        Long last = lastArrival.value();
        if (last != null && timestamp >= last + idleGapMs) {
            endSessionSoFar("idle gap", ctx, out);
        }
    }

    /** Ends the session from a timer, when it has turns. */
    private void endSessionSoFar(String reason, OnTimerContext ctx, Collector<WindowBatch> out)
            throws Exception {
        List<TurnRecord> sessionTurns = list(session);
        if (!sessionTurns.isEmpty()) {
            endSession(sessionTurns.get(sessionTurns.size() - 1), reason, ctx.timerService(), out);
        }
    }

    private void endSession(
            TurnRecord any, String reason, TimerService timers, Collector<WindowBatch> out)
            throws Exception {
        timers.deleteEventTimeTimer(Long.MAX_VALUE);
        List<TurnRecord> turns = list(pending);
        List<TurnRecord> sessionTurns = list(session);
        if (!sessionTurns.isEmpty()) {
            out.collect(batch(any, list(overlap), turns, true, reason, sessionTurns));
            windows.inc();
        }
        clear();
    }

    /** Whether the open session already holds a turn with this id. */
    private boolean alreadyHeld(String turnId) throws Exception {
        for (ListState<TurnRecord> held : List.of(pending, session)) {
            Iterable<TurnRecord> turns = held.get();
            if (turns != null) {
                for (TurnRecord t : turns) {
                    if (turnId.equals(t.turnId)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Clears the current key's state (its timers find nothing to do when they fire). */
    private void clear() {
        pending.clear();
        overlap.clear();
        session.clear();
        pendingCount.clear();
        sessionCount.clear();
        lastEventTs.clear();
        lastArrival.clear();
    }

    private static WindowBatch batch(
            TurnRecord key,
            List<TurnRecord> context,
            List<TurnRecord> turns,
            boolean end,
            String reason,
            List<TurnRecord> sessionTurns) {
        WindowBatch b = new WindowBatch();
        b.tenantId = key.tenantId;
        b.projectId = key.projectId;
        b.environment = key.environment;
        b.userId = key.userId;
        b.sessionId = key.sessionId;
        b.sessionEnd = end;
        b.endReason = reason;
        b.context = context.toArray(new TurnRecord[0]);
        b.turns = turns.toArray(new TurnRecord[0]);
        b.sessionTurns = sessionTurns.toArray(new TurnRecord[0]);
        return b;
    }

    private static int increment(ValueState<Integer> counter) throws Exception {
        Integer v = counter.value();
        int next = v == null ? 1 : v + 1;
        counter.update(next);
        return next;
    }

    private static List<TurnRecord> list(ListState<TurnRecord> state) throws Exception {
        List<TurnRecord> out = new ArrayList<>();
        Iterable<TurnRecord> it = state.get();
        if (it != null) {
            it.forEach(out::add);
        }
        return out;
    }
}
