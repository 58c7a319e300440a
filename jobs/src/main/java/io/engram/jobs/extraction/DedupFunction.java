package io.engram.jobs.extraction;

import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.DedupThresholds;
import io.engram.dedup.UserMemories;
import io.engram.extraction.CandidateFact;
import io.engram.jobs.store.KnownMemorySource;
import io.engram.jobs.store.MemoryCodec;
import io.engram.jobs.store.OtherWrites;
import io.engram.jobs.store.PastForgets;
import io.engram.jobs.store.SeenTurns;
import io.engram.jobs.store.UserMemoriesSerializer;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import io.engram.store.MemoryStoreWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decides, per user and in order, what each extracted fact does to the user's memories. The user's
 * recent memories live in keyed state; on first sight of a user (or after the state expired) they
 * are loaded from the index. Emits the encoded changes for the store sink.
 *
 * <p>Forget notices come in on the broadcast input: a notice drops the user's state in its project
 * (or in every project) on every subtask and, for {@link SessionWindowFunction#FORGET_HORIZON}, the
 * user's windows cut before it that are still on their way. The audit of forgets in PostgreSQL is
 * asked too, once for each user the operator starts to hold state for: a window sent before the
 * user's last forget is dropped even when the notice is long gone from the broadcast state or not
 * yet read, as in a replay of the topic from before the forget.
 */
public class DedupFunction
        extends KeyedBroadcastProcessFunction<String, FactBatch, TurnRecord, byte[]> {

    private static final long serialVersionUID = 1L;

    /** The broadcast state: when each user was forgotten (notice key, epoch ms). */
    public static final MapStateDescriptor<String, Long> NOTICES =
            new MapStateDescriptor<>("forgotten-everywhere", Types.STRING, Types.LONG);

    /**
     * The user's recent memories. Other writers (the API, maintenance jobs) change memories too: a
     * user is reloaded now and then.
     */
    private static final ValueStateDescriptor<UserMemories> KNOWN =
            forSixHours(new ValueStateDescriptor<>("known", UserMemoriesSerializer.INSTANCE));

    /** Keyed state of a user that the operator lets go six hours after it was last written. */
    private static <T> ValueStateDescriptor<T> forSixHours(ValueStateDescriptor<T> descriptor) {
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(Duration.ofHours(6)).build());
        return descriptor;
    }

    /** The user's last forget per the audit (epoch ms, -1 never), asked once per user in state. */
    private static final ValueStateDescriptor<Long> FORGOTTEN_AT =
            forSixHours(new ValueStateDescriptor<>("auditedForgetAt", Types.LONG));

    /** The other writers' count when a user's memories were loaded into state. */
    private static final ValueStateDescriptor<Long> LOADED_AT =
            forSixHours(new ValueStateDescriptor<>("loadedAt", Types.LONG));

    private final ExtractionSettings settings;
    private final KnownMemorySource source;
    private final OtherWrites others;
    private final PastForgets pastForgets;
    private final SeenTurns seenTurns;
    private transient SeenTurns.Lookup seen;
    private transient Counter replayedBatches;
    private transient ValueState<UserMemories> known;
    private transient ValueState<Long> loadedAt;
    private transient ValueState<Long> auditedForgetAt;
    private transient OtherWrites.Counts otherWrites;
    private transient PastForgets.Lookup forgets;
    private transient Counter reloads;
    private transient Counter forgottenBatches;
    private transient ChangePlanner planner;
    private transient Function<Scope, List<Memory>> loader;
    private transient Counter deadLetters;
    private transient Map<String, Counter> decisions;

    public DedupFunction(
            ExtractionSettings settings,
            KnownMemorySource source,
            OtherWrites others,
            PastForgets pastForgets) {
        this(settings, source, others, pastForgets, SeenTurns.NEVER);
    }

    public DedupFunction(
            ExtractionSettings settings,
            KnownMemorySource source,
            OtherWrites others,
            PastForgets pastForgets,
            SeenTurns seenTurns) {
        this.settings = settings;
        this.source = source;
        this.others = others;
        this.pastForgets = pastForgets;
        this.seenTurns = seenTurns;
    }

    @Override
    public void open(OpenContext context) {
        known = getRuntimeContext().getState(KNOWN);
        loadedAt = getRuntimeContext().getState(LOADED_AT);
        auditedForgetAt = getRuntimeContext().getState(FORGOTTEN_AT);
        otherWrites = others.open();
        forgets = pastForgets.open();
        seen = seenTurns.open();
        replayedBatches = getRuntimeContext().getMetricGroup().counter("replayedBatches");
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
        reloads = getRuntimeContext().getMetricGroup().counter("reloadsAfterOtherWrites");
        forgottenBatches = getRuntimeContext().getMetricGroup().counter("forgottenBatches");
        planner =
                new ChangePlanner(
                        new DedupPolicy(
                                new DedupThresholds(
                                        settings.updateSimilarity(),
                                        settings.relatedSimilarity(),
                                        settings.supersedeMinSimilarity())),
                        settings.embeddingVersion());
        loader = source.open();
        decisions = new ConcurrentHashMap<>();
        for (String kind : List.of("create", "update", "supersede", "contradict", "noop")) {
            decisions.put(
                    kind,
                    getRuntimeContext()
                            .getMetricGroup()
                            .addGroup("decision", kind)
                            .counter("count"));
        }
    }

    @Override
    public void close() throws Exception {
        if (otherWrites != null) {
            otherWrites.close();
        }
        if (forgets != null) {
            forgets.close();
        }
        if (seen != null) {
            seen.close();
        }
    }

    /** Remembers the forget and drops the user's state in the project(s) it covers. */
    @Override
    public void processBroadcastElement(TurnRecord notice, Context ctx, Collector<byte[]> out)
            throws Exception {
        if (!notice.forgetUser) {
            return;
        }
        notice.rememberIn(ctx.getBroadcastState(NOTICES));
        for (ValueStateDescriptor<?> d : List.of(KNOWN, LOADED_AT, FORGOTTEN_AT)) {
            ctx.applyToKeyedState(
                    d,
                    (key, state) -> {
                        if (notice.covers(key)) {
                            state.clear();
                        }
                    });
        }
    }

    @Override
    public void processElement(FactBatch batch, ReadOnlyContext ctx, Collector<byte[]> out)
            throws Exception {
        // A window cut before the notice reached the session windows, still on its way then.
        if (TurnRecord.sentBeforeForget(
                ctx.getBroadcastState(NOTICES),
                batch.sentAt,
                batch.tenantId,
                batch.projectId,
                batch.environment,
                batch.userId)) {
            forgottenBatches.inc();
            return;
        }
        // A window sent before a forget whose notice this operator has not (or no longer) got.
        Long audited = auditedForgetAt.value();
        if (audited == null) {
            audited = forgets.lastForget(batch.scope());
            auditedForgetAt.update(audited);
        }
        if (TurnRecord.sentBefore(batch.sentAt, audited >= 0 ? audited : null)) {
            forgottenBatches.inc();
            return;
        }
        // The same turns sent again: nothing to decide (the sink checks again, under the user's
        // lock, for windows still on their way).
        if (seen.allSeen(batch.scope(), batch.sessionId, java.util.Arrays.asList(batch.turnIds))) {
            replayedBatches.inc();
            return;
        }
        // What the API or a maintenance job changed since the user was loaded (a delete, a
        // consolidation) must not be decided against: load the user again.
        long writes = otherWrites.of(batch.scope());
        UserMemories memories = known.value();
        if (memories != null && writes >= 0 && !Long.valueOf(writes).equals(loadedAt.value())) {
            memories = null;
            reloads.inc();
        }
        if (memories == null) {
            memories = UserMemories.of(loader.apply(batch.scope()), settings.knownPerUser());
            loadedAt.update(writes >= 0 ? writes : null);
        }
        List<MemoryChange> changes;
        try {
            changes = plan(batch, memories);
        } catch (RuntimeException e) {
            // A batch the decision cannot take: its changes are not written, and what the decision
            // may have half-applied to the user's memories is let go (read again next time).
            deadLetters.inc();
            known.clear();
            loadedAt.clear();
            ctx.output(
                    ParseFunction.DEAD_LETTERS,
                    StageLetters.forBatch(
                            "dedup_failure",
                            "deduplication failed: " + StageLetters.describe(e),
                            batch));
            return;
        }
        known.update(memories);
        out.collect(
                MemoryCodec.encodeFromTurns(
                        new MemoryStoreWriter.FromTurns(
                                batch.sentAt,
                                changes,
                                batch.sessionId,
                                java.util.Arrays.asList(batch.turnIds))));
    }

    /**
     * When the batch's facts were said: the order of values is the order of turns, however late a
     * replay or a restart brings them (not the Kafka time, which is when a replay sent them). A
     * batch without its turns' times falls back to the newest time its facts name.
     */
    private static Instant saidAt(FactBatch batch, List<CandidateFact> facts) {
        if (batch.saidAt >= 0) {
            return Instant.ofEpochMilli(batch.saidAt);
        }
        return facts.stream()
                .map(CandidateFact::validFrom)
                .max(Instant::compareTo)
                .orElseGet(Instant::now);
    }

    /** The changes the batch's facts make to the user's memories (applied to them as it goes). */
    List<MemoryChange> plan(FactBatch batch, UserMemories memories) {
        List<CandidateFact> facts = new ArrayList<>(batch.facts.length);
        List<float[]> vectors = new ArrayList<>(batch.facts.length);
        for (FactRecord f : batch.facts) {
            facts.add(f.toFact());
            vectors.add(f.vector);
        }
        List<ChangePlanner.Planned> planned =
                planner.plan(
                        batch.scope(),
                        Optional.ofNullable(batch.sessionId),
                        "conversation",
                        facts,
                        vectors,
                        memories,
                        saidAt(batch, facts));
        List<MemoryChange> changes = new ArrayList<>(planned.size());
        for (ChangePlanner.Planned p : planned) {
            decisions.get(p.decision().kind()).inc();
            changes.add(p.change());
        }
        return changes;
    }
}
