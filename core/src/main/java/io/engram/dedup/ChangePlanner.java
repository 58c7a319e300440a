package io.engram.dedup;

import io.engram.embedding.ModelSpec;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.Excerpts;
import io.engram.extraction.statements.ChangeMention;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.FactSwitch;
import io.engram.extraction.statements.NamedInstead;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryStatus;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Turns candidate facts (with their vectors) into changes against a user's memories, one fact at a
 * time and in order, so that two facts of one batch are decided against each other too.
 */
public final class ChangePlanner {

    static final int NEAREST = 5;

    private final DedupPolicy policy;
    private final String embeddingVersion;
    private final ModelSpec scale;

    public ChangePlanner(DedupPolicy policy, String embeddingVersion) {
        this.policy = policy;
        this.embeddingVersion = embeddingVersion;
        this.scale = ModelSpec.scaleOf(embeddingVersion);
    }

    /** A decision per fact, plus the resulting change (none for facts decided against nothing). */
    public record Planned(Decision decision, MemoryChange change) {}

    /**
     * The changes {@code facts} make to the user's memories, applied to {@code known} as it goes.
     * {@code now} is when the facts were said (the newest turn of their window): a value said after
     * the stored one replaces it, one said before it held is history.
     */
    public List<Planned> plan(
            Scope scope,
            Optional<String> sessionId,
            String source,
            List<CandidateFact> facts,
            List<float[]> vectors,
            UserMemories known,
            Instant now) {
        List<Planned> out = new ArrayList<>(facts.size());
        Contradictions contradictions = new Contradictions();
        // The turns whose whole message gave a value (NamedInstead).
        java.util.Set<String> readWhole = new java.util.HashSet<>();
        for (int i = 0; i < facts.size(); i++) {
            CandidateFact fact = facts.get(i);
            float[] vector = vectors.get(i);
            if (Excerpts.isExcerpt(fact.tags())) {
                // A record of what was said: nothing to deduplicate, and no fact is ever decided
                // against it.
                Decision create = new Decision.Create("conversation excerpt, stored as said", 0);
                out.add(
                        new Planned(
                                create,
                                new MemoryChange.Created(
                                        newMemory(scope, sessionId, source, fact, vector, now),
                                        create.reason(),
                                        0)));
                continue;
            }
            if (fact.tags().contains(ChangeMention.TAG)) {
                // "corsa finally died": read once the batch's facts are decided.
                contradictions.add(fact, i);
                continue;
            }
            if (ValueHint.isHint(fact.tags()) && readWhole.containsAll(fact.sourceTurnIds())) {
                // Its turn was read as a whole below: its sentences tell the same change.
                continue;
            }
            if (ValueHint.isHint(fact.tags())) {
                // A change in words no reader knows: stored only as the value it gives of a
                // memory the speaker has, never as said.
                boolean message = fact.tags().contains(NamedInstead.TAG);
                Optional<HintReader.Read> read =
                        message
                                ? NamedReplacement.read(fact.content(), fact.sourceTurnIds(), known)
                                : HintReader.read(fact.content(), fact.validFrom(), known);
                if (read.isEmpty()) {
                    // No value read: a sentence may still tell that one changed.
                    if (!message) {
                        contradictions.add(fact, i);
                    }
                    continue;
                }
                HintReader.Read r = read.get();
                if (message) {
                    readWhole.addAll(fact.sourceTurnIds());
                }
                if (laterGives(facts, i, r.attribute())) {
                    // "Sold the Civic. I drive a Tacoma truck now.": the statement's value
                    // replaces the old one itself, no "no longer" nor a value read from the hint
                    // between them.
                    continue;
                }
                CandidateFact stored =
                        new CandidateFact(
                                r.old().type(),
                                r.sentence(),
                                fact.importance(),
                                List.of(),
                                fact.sourceTurnIds(),
                                fact.validFrom());
                Decision decision = supersede(r.old(), r.attribute(), r.oldValue(), r.value());
                MemoryChange change =
                        toChange(scope, sessionId, source, stored, vector, decision, known, now);
                known.apply(change);
                out.add(new Planned(decision, change));
                continue;
            }
            Keyed keyed = keyed(fact, known);
            fact = keyed.fact();
            Decision decision =
                    keyed.decision() != null
                            ? keyed.decision()
                            : policy.decide(
                                    fact, known.nearest(fact.type(), vector, NEAREST, scale));
            MemoryChange change =
                    toChange(scope, sessionId, source, fact, vector, decision, known, now);
            known.apply(change);
            out.add(new Planned(decision, change));
        }
        // Once every fact of the batch is decided: "karen left" read above ends her first.
        out.addAll(contradictions.plan(scope, facts, known));
        return out;
    }

    /** Whether a fact after the {@code i}th is a statement of {@code attribute}'s value. */
    private static boolean laterGives(List<CandidateFact> facts, int i, String attribute) {
        for (int j = i + 1; j < facts.size(); j++) {
            CandidateFact f = facts.get(j);
            if (!ValueHint.isHint(f.tags())
                    && !Excerpts.isExcerpt(f.tags())
                    && FactKey.of(f.content())
                            .filter(k -> k.attribute().equals(attribute))
                            .isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** A decision taken by the value a fact gives (or none), and the fact as it will be stored. */
    private record Keyed(CandidateFact fact, Decision decision) {}

    /**
     * A fact that gives the value of something a current memory gives a value of: the same value
     * reinforces it, another supersedes it, whatever the wording ("Alice's budget is $15,000" after
     * "Alice's budget for the Hawaii trip is $10,000"). The new fact keeps the more specific
     * attribute of the two.
     */
    private static Keyed keyed(CandidateFact fact, UserMemories known) {
        Optional<FactKey> key = FactKey.of(fact.content());
        if (key.isEmpty()) {
            return switched(fact, known);
        }
        Optional<Memory> same = known.sameThing(key.get(), fact.type());
        if (same.isEmpty()) {
            return new Keyed(fact, null);
        }
        FactKey old = FactKey.of(same.get().content()).orElseThrow();
        if (!old.valueDiffers(key.get())) {
            return new Keyed(
                    fact,
                    new Decision.Noop(
                            same.get().id(), "the same value of " + old.attribute(), 1.0));
        }
        // "elden ring" where "Minecraft" stood: a name typed in lower case, written as one.
        FactKey said = key.get().casedAs(old);
        CandidateFact stored =
                key.get().lessSpecificThan(old)
                        ? fact.withContent(old.withValue(said.value()))
                        : said == key.get() ? fact : fact.withContent(said.sentence(said.value()));
        return new Keyed(stored, supersede(same.get(), old, key.get().value()));
    }

    /**
     * "Dana switched from Intel to AMD" when a current memory gives Intel as a value: that value's
     * fact with AMD ("Dana works at AMD"), superseding it. Otherwise the fact as said.
     */
    private static Keyed switched(CandidateFact fact, UserMemories known) {
        Optional<FactSwitch> change = FactSwitch.of(fact.content());
        if (change.isEmpty()) {
            return new Keyed(fact, null);
        }
        var replaced = known.replacedBy(change.get());
        if (replaced.isEmpty()) {
            return new Keyed(fact, null);
        }
        UserMemories.Replaced r = replaced.get();
        CandidateFact stored =
                new CandidateFact(
                        r.memory().type(),
                        r.sentence(),
                        fact.importance(),
                        fact.tags(),
                        fact.sourceTurnIds(),
                        fact.validFrom());
        return new Keyed(
                stored, supersede(r.memory(), r.attribute(), r.value(), change.get().to()));
    }

    private static Decision.Supersede supersede(Memory old, FactKey oldKey, String newValue) {
        return supersede(old, oldKey.attribute(), oldKey.value(), newValue);
    }

    private static Decision.Supersede supersede(
            Memory old, String attribute, String oldValue, String newValue) {
        return new Decision.Supersede(
                old.id(), "new value of " + attribute + ": " + oldValue + " → " + newValue, 1.0);
    }

    private MemoryChange toChange(
            Scope scope,
            Optional<String> sessionId,
            String source,
            CandidateFact fact,
            float[] vector,
            Decision decision,
            UserMemories known,
            Instant now) {
        if (decision instanceof Decision.Noop noop) {
            Memory existing = known.get(noop.target());
            return new MemoryChange.Reinforced(
                    existing.reinforced(fact.sourceTurnIds(), fact.importance()),
                    noop.reason(),
                    noop.similarity());
        }
        if (decision instanceof Decision.Update update) {
            Memory existing = known.get(update.target());
            if (fact.validFrom().isBefore(existing.validFrom())) {
                // An older statement arriving late never overwrites a newer one.
                return new MemoryChange.Reinforced(
                        existing.reinforced(fact.sourceTurnIds(), fact.importance()),
                        "older restatement of an existing memory",
                        update.similarity());
            }
            List<String> sources = new ArrayList<>(existing.sourceTurnIds());
            fact.sourceTurnIds().stream().filter(s -> !sources.contains(s)).forEach(sources::add);
            Memory updated =
                    existing.withContent(
                            fact.content(),
                            fact.tags(),
                            sources,
                            Math.max(existing.importance(), fact.importance()),
                            fact.validFrom(),
                            vector);
            return new MemoryChange.Updated(
                    updated, existing.content(), update.reason(), update.similarity());
        }
        Memory created = newMemory(scope, sessionId, source, fact, vector, now);
        if (decision instanceof Decision.Supersede supersede) {
            Memory old = known.get(supersede.target());
            if (now.isBefore(old.createdAt())
                    || fact.validFrom().isBefore(old.validFrom())
                            && now.isBefore(old.validFrom())) {
                // Turns can arrive out of order (sessions are separate Kafka keys): a value said
                // before the stored one was said, or before it even held, is history from the
                // start. One said later is news, whatever time it names: "we moved to Denver last
                // month", said after "I live in Boston", is where the user lives now.
                Memory historical = created.superseded(old.id(), old.validFrom());
                return new MemoryChange.Created(
                        historical,
                        "older value, already superseded: " + supersede.reason(),
                        supersede.similarity());
            }
            Instant until =
                    fact.validFrom().isBefore(old.validFrom()) ? old.validFrom() : fact.validFrom();
            return new MemoryChange.Superseded(
                    created,
                    old.superseded(created.id(), until),
                    supersede.reason(),
                    supersede.similarity());
        }
        return new MemoryChange.Created(created, decision.reason(), decision.similarity());
    }

    private Memory newMemory(
            Scope scope,
            Optional<String> sessionId,
            String source,
            CandidateFact fact,
            float[] vector,
            Instant now) {
        UUID id = MemoryIds.fromConversation(scope, fact.sourceTurnIds(), fact.content());
        return new Memory(
                id,
                scope,
                sessionId,
                fact.type(),
                fact.content(),
                fact.tags(),
                source,
                fact.sourceTurnIds(),
                fact.importance(),
                Tier.HOT,
                MemoryStatus.ACTIVE,
                fact.validFrom(),
                Optional.empty(),
                Optional.empty(),
                1,
                embeddingVersion,
                vector,
                // created_at is when the fact was said, so a replay writes the same row and a
                // value said later is known to be newer, whatever time it names.
                now);
    }
}
