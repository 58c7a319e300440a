package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.UserMemories;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Dana tells something, then something else: the facts the heuristic extractor reads from each and
 * the changes the later ones make to what the first ones stored. The vectors are orthogonal, so no
 * similarity can stand in for reading the value.
 */
final class DanaTells {

    static final Scope DANA = new Scope("acme", "default", "prod", "dana");
    static final Instant T = Instant.parse("2026-03-15T10:00:00Z");

    private static final HeuristicExtractor EXTRACTOR = new HeuristicExtractor();

    private DanaTells() {}

    /** What Dana said first and later, and the changes the later facts make. */
    record Told(
            List<CandidateFact> first,
            List<CandidateFact> later,
            List<ChangePlanner.Planned> planned) {}

    /** Dana says {@code before} at {@code beforeAt}, then {@code after} at {@code afterAt}. */
    static Told tell(String before, Instant beforeAt, String after, Instant afterAt) {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        List<CandidateFact> first = facts(before, beforeAt);
        assertThat(first).as("a fact from: " + before).isNotEmpty();
        planner.plan(
                DANA, Optional.of("s1"), "conversation", first, axes(first, 0), known, beforeAt);
        List<CandidateFact> later = facts(after, afterAt);
        List<ChangePlanner.Planned> planned =
                planner.plan(
                        DANA,
                        Optional.of("s2"),
                        "conversation",
                        later,
                        axes(later, first.size()),
                        known,
                        afterAt);
        return new Told(first, later, planned);
    }

    /** The facts of one turn of Dana's, said at {@code at}, without the excerpt. */
    static List<CandidateFact> facts(String said, Instant at) {
        ExtractionResult result = EXTRACTOR.extract(turnOf(said, at));
        return ((ExtractionResult.Facts) result)
                .facts().stream().filter(f -> !Excerpts.isExcerpt(f.tags())).toList();
    }

    /**
     * Dana says {@code said} at {@code at}, in a turn of its own for each time, as in a
     * conversation: what one turn says is never read against itself.
     */
    static ExtractionWindow turnOf(String said, Instant at) {
        return new ExtractionWindow(
                "s" + at.getEpochSecond(),
                List.of(),
                List.of(
                        new ConversationTurn(
                                "t" + at.getEpochSecond(),
                                io.engram.events.Role.USER,
                                Optional.of("Dana"),
                                said,
                                at)),
                false);
    }

    /** One unit vector per fact, each on its own axis from {@code from} on. */
    static List<float[]> axes(List<CandidateFact> facts, int from) {
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            float[] v = new float[16];
            v[from + i] = 1;
            out.add(v);
        }
        return out;
    }

    /** What the later facts store, in order. */
    static List<String> contents(List<ChangePlanner.Planned> planned) {
        return planned.stream().map(p -> p.change().memory().content()).toList();
    }

    /**
     * The planned change that stores {@code stored}, and that it supersedes the first thing Dana
     * said.
     */
    /** Tells {@code before}, then {@code after} 30 days later; nothing may be superseded. */
    static void supersedesNothing(String before, String after) {
        Told told = tell(before, T, after, T.plus(java.time.Duration.ofDays(30)));
        assertThat(told.planned())
                .extracting(p -> p.decision().kind())
                .as(after)
                .doesNotContain("supersede");
    }

    static ChangePlanner.Planned supersedesTheFirst(Told told, String stored) {
        ChangePlanner.Planned found =
                told.planned().stream()
                        .filter(p -> p.change().memory().content().equals(stored))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "no "
                                                        + stored
                                                        + " among "
                                                        + contents(told.planned())));
        assertThat(found.decision())
                .as(found.decision().reason())
                .isInstanceOf(io.engram.dedup.Decision.Supersede.class);
        assertThat(((io.engram.memory.MemoryChange.Superseded) found.change()).old().content())
                .isEqualTo(told.first().get(0).content());
        return found;
    }
}
