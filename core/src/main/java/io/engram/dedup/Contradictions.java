package io.engram.dedup;

import io.engram.extraction.CandidateFact;
import io.engram.extraction.Excerpts;
import io.engram.extraction.statements.ChangeMention;
import io.engram.extraction.statements.Continuation;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The sentences of a batch that tell of a change of the speaker's in words no reader gives the new
 * value from ({@link ChangeMention}), read once every fact of the batch is decided: the one current
 * statement of the speaker's whose value such a sentence names, said before it, is contradicted by
 * the excerpt of the sentence's turn. Nothing is stored as said; with no excerpt of that turn in
 * the batch, or with two statements named, nothing is marked.
 */
final class Contradictions {

    private final List<CandidateFact> mentions = new ArrayList<>();

    /** Where each mention stands among the batch's candidates. */
    private final List<Integer> places = new ArrayList<>();

    /**
     * A sentence carried by a candidate (a mention, or a hint no reader gave a value from), the
     * {@code index}th of the batch.
     */
    void add(CandidateFact fact, int index) {
        mentions.add(fact);
        places.add(index);
    }

    /** The contradictions the batch's sentences make, against {@code known} as it is now. */
    List<ChangePlanner.Planned> plan(Scope scope, List<CandidateFact> batch, UserMemories known) {
        List<ChangePlanner.Planned> out = new ArrayList<>();
        java.util.Set<UUID> marked = new java.util.HashSet<>();
        for (int i = 0; i < mentions.size(); i++) {
            // "the fabia died lol. jk, garage fixed it, I drive the Fabia": what the batch says
            // after the sentence stands.
            java.util.Set<String> restated = new java.util.HashSet<>();
            for (CandidateFact f : batch.subList(places.get(i) + 1, batch.size())) {
                // A statement, not an excerpt, a summary or another hint.
                if ((f.type() == MemoryType.SEMANTIC || f.type() == MemoryType.SOCIAL)
                        && !Excerpts.isExcerpt(f.tags())
                        && !ValueHint.isHint(f.tags())) {
                    restated.addAll(f.sourceTurnIds());
                }
            }
            contradiction(scope, mentions.get(i), batch, known, restated)
                    // Two sentences of one batch telling the same change mark it once.
                    .filter(change -> marked.add(change.memory().id()))
                    .ifPresent(
                            change -> {
                                known.apply(change);
                                out.add(
                                        new ChangePlanner.Planned(
                                                new Decision.Contradict(
                                                        change.memory().id(),
                                                        change.by(),
                                                        change.reason(),
                                                        1.0),
                                                change));
                            });
        }
        return out;
    }

    private static Optional<MemoryChange.Contradicted> contradiction(
            Scope scope,
            CandidateFact mention,
            List<CandidateFact> batch,
            UserMemories known,
            java.util.Set<String> restated) {
        List<String> turns = mention.sourceTurnIds();
        if (turns.isEmpty()) {
            return Optional.empty();
        }
        Optional<CandidateFact> excerpt = excerptOf(turns.get(turns.size() - 1), batch);
        if (excerpt.isEmpty()) {
            return Optional.empty();
        }
        CandidateFact e = excerpt.get();
        UUID by = MemoryIds.fromConversation(scope, e.sourceTurnIds(), e.content());
        String content = mention.content();
        int tail = content.indexOf(Continuation.TAIL);
        ValueHint said = ValueHint.parse(tail < 0 ? content : content.substring(0, tail));
        // The sentence's clauses are read once, then against each statement.
        List<String> clauses = ChangeMention.changeClauses(said.sentence());
        if (clauses.isEmpty()) {
            return Optional.empty();
        }
        Memory found = null;
        String word = null;
        for (Memory m : known.valued()) {
            // Said before the sentence, in another turn: a statement of the same window is known
            // by then, one of an older session replayed late is not contradicted by it.
            if (m.type() != MemoryType.SEMANTIC && m.type() != MemoryType.SOCIAL
                    || m.validFrom().isAfter(mention.validFrom())
                    || m.sourceTurnIds().contains(turns.get(turns.size() - 1))
                    || m.sourceTurnIds().stream().anyMatch(restated::contains)) {
                continue;
            }
            Optional<String> named = ChangeMention.named(said.speaker(), m.content(), clauses);
            if (named.isEmpty()) {
                continue;
            }
            if (found != null) {
                // Two statements named: which one changed is not told.
                return Optional.empty();
            }
            found = m;
            word = named.get();
        }
        if (found == null) {
            return Optional.empty();
        }
        return Optional.of(
                new MemoryChange.Contradicted(
                        found,
                        by,
                        e.sourceTurnIds(),
                        word,
                        // Bounded: a change's reason crosses the job as a short string.
                        "a later turn tells \""
                                + word
                                + "\" changed: "
                                + io.engram.text.Text.clip(said.sentence(), 200),
                        1.0));
    }

    /** The excerpt of {@code turn} among the batch's candidates, if any. */
    private static Optional<CandidateFact> excerptOf(String turn, List<CandidateFact> batch) {
        for (CandidateFact f : batch) {
            List<String> t = f.sourceTurnIds();
            if (Excerpts.isExcerpt(f.tags()) && !t.isEmpty() && t.get(t.size() - 1).equals(turn)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
