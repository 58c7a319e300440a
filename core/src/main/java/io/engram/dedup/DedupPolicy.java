package io.engram.dedup;

import io.engram.extraction.CandidateFact;
import io.engram.memory.MemoryType;
import io.engram.text.Text;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides what a candidate fact does to the user's memories, given the nearest existing ones.
 * Identical content reinforces (NOOP); a changed value about the same thing supersedes; a near
 * restatement updates; anything else is created.
 */
public final class DedupPolicy {

    private final DedupThresholds thresholds;

    public DedupPolicy(DedupThresholds thresholds) {
        this.thresholds = thresholds;
    }

    public DedupPolicy() {
        this(DedupThresholds.DEFAULT);
    }

    public DedupThresholds thresholds() {
        return thresholds;
    }

    public Decision decide(CandidateFact candidate, List<ExistingMemory> nearest) {
        List<ExistingMemory> sameType =
                nearest.stream()
                        .filter(m -> m.type() == candidate.type())
                        .sorted(Comparator.comparingDouble(ExistingMemory::similarity).reversed())
                        .toList();
        String normalized = Text.normalizeForHash(candidate.content());
        for (ExistingMemory m : sameType) {
            if (Text.normalizeForHash(m.content()).equals(normalized)) {
                return new Decision.Noop(m.id(), "identical to an existing memory", m.similarity());
            }
        }
        // Events accumulate: a new episode never replaces or rewrites an earlier one.
        for (ExistingMemory m :
                candidate.type() == MemoryType.EPISODIC ? List.<ExistingMemory>of() : sameType) {
            if (m.similarity() < thresholds.supersedeMin()) {
                break;
            }
            Optional<ValueChange.Change> change =
                    ValueChange.between(m.content(), candidate.content());
            if (change.isPresent()) {
                ValueChange.Change c = change.get();
                return new Decision.Supersede(
                        m.id(),
                        "same subject ("
                                + c.subject()
                                + "), value changed from "
                                + c.oldValue()
                                + " to "
                                + c.newValue(),
                        m.similarity());
            }
        }
        if (sameType.isEmpty()) {
            return new Decision.Create("no existing memory of this type", 0);
        }
        if (candidate.type() == MemoryType.EPISODIC) {
            return new Decision.Create("a separate episode", sameType.get(0).similarity());
        }
        ExistingMemory best = sameType.get(0);
        if (best.similarity() > thresholds.update()) {
            return new Decision.Update(best.id(), "restates an existing memory", best.similarity());
        }
        if (best.similarity() >= thresholds.related()) {
            return new Decision.Create(
                    "related to an existing memory but distinct", best.similarity());
        }
        return new Decision.Create("new information", best.similarity());
    }
}
