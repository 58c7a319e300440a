package io.engram.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.CandidateFact;
import io.engram.extraction.Excerpts;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChangePlannerTest {

    private static final Scope ALICE = new Scope("acme", "default", "prod", "alice");
    private static final Instant T = Instant.parse("2026-03-15T10:00:00Z");

    private static float[] unit() {
        float[] v = new float[8];
        v[0] = 1;
        return v;
    }

    private static CandidateFact fact(String content, List<String> tags, String turn) {
        return new CandidateFact(MemoryType.EPISODIC, content, 0.5, tags, List.of(turn), T);
    }

    @Test
    void excerptsAreStoredAsSaidAndNeverDecidedAgainst() {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        String said = "Alice went hiking at Mount Rainier with her sister.";
        List<ChangePlanner.Planned> planned =
                planner.plan(
                        ALICE,
                        Optional.of("s1"),
                        "conversation",
                        List.of(
                                fact(said, List.of(), "t1"),
                                fact("Alice: " + said, List.of(Excerpts.TAG), "t1"),
                                fact("Alice: " + said, List.of(Excerpts.TAG), "t2")),
                        List.of(unit(), unit(), unit()),
                        known,
                        T);

        assertThat(planned)
                .extracting(p -> p.decision().kind())
                .containsExactly("create", "create", "create");
        assertThat(planned.get(1).change()).isInstanceOf(MemoryChange.Created.class);
        // Identical vectors, yet neither excerpt became the fact's duplicate, nor the other's.
        assertThat(known.size()).isEqualTo(1);

        // The same fact again is decided against the fact, not against an excerpt.
        List<ChangePlanner.Planned> again =
                planner.plan(
                        ALICE,
                        Optional.of("s2"),
                        "conversation",
                        List.of(fact(said, List.of(), "t9")),
                        List.of(unit()),
                        known,
                        T.plusSeconds(60));
        assertThat(again.get(0).decision().kind()).isEqualTo("noop");
        assertThat(((Decision.Noop) again.get(0).decision()).target())
                .isEqualTo(planned.get(0).change().memory().id());
    }
}
