package io.engram.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CollapseTest {

    private static Collapse.Item fact(String id, String... turns) {
        return new Collapse.Item(id, List.of(turns), false);
    }

    private static Collapse.Item excerpt(String id, String... turns) {
        return new Collapse.Item(id, List.of(turns), true);
    }

    @Test
    void aFactTakesAlongTheRecalledExcerptItWasReadFromInOnePlace() {
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(
                                fact("f", "t3"),
                                excerpt("other", "t2", "t3", "t4"),
                                excerpt("e", "t1", "t2", "t3"),
                                excerpt("later", "t7", "t8", "t9")),
                        10);
        assertThat(picks).extracting(Collapse.Pick::id).containsExactly("f", "other", "later");
        // Of the two excerpts holding t3, the one that ends with it.
        assertThat(picks.get(0).contextId()).isEqualTo("e");
        assertThat(picks.get(0).sourceTurnIds()).containsExactlyInAnyOrder("t1", "t2", "t3");
    }

    @Test
    void aMemoryWhoseTurnsAreAllToldAboveIsLeftOutAndTheLimitHolds() {
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(
                                excerpt("e1", "t1", "t2", "t3"),
                                fact("f", "t2"),
                                new Collapse.Item("api", List.of(), false),
                                excerpt("e2", "t4", "t5", "t6"),
                                excerpt("e3", "t7")),
                        3);
        assertThat(picks).extracting(Collapse.Pick::id).containsExactly("e1", "api", "e2");
    }

    @Test
    void twoFactsReadFromOneTurnAreBothKept() {
        // "I moved to Lisbon last spring and I work as a pharmacist there": two statements.
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(
                                fact("pharmacist", "t1"),
                                excerpt("e", "t1"),
                                fact("lisbon", "t1"),
                                excerpt("later", "t5")),
                        10);
        assertThat(picks)
                .extracting(Collapse.Pick::id)
                .containsExactly("pharmacist", "lisbon", "later");
        assertThat(picks.get(0).contextId()).isEqualTo("e");
        assertThat(picks.get(1).contextId()).isNull();
    }

    @Test
    void aFactWhoseExcerptWasNotRecalledTakesTheOneTheCallerHolds() {
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(fact("f", "t5"), excerpt("e", "t8", "t9")),
                        10,
                        f -> excerpt("held", "t3", "t4", "t5"));
        assertThat(picks.get(0).contextId()).isEqualTo("held");
        assertThat(picks.get(0).sourceTurnIds()).containsExactlyInAnyOrder("t3", "t4", "t5");
        // One that does not hold the fact's turns is not taken.
        assertThat(
                        Collapse.of(List.of(fact("f", "t5")), 10, f -> excerpt("x", "t1", "t2"))
                                .get(0)
                                .contextId())
                .isNull();
    }

    @Test
    void anExcerptHoldingAnExcerptAboveTakesItsPlace() {
        // A session's first turns: excerpts of one, two and three turns, best first.
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(
                                excerpt("e1", "t1"),
                                fact("f9", "t9"),
                                excerpt("e2", "t1", "t2"),
                                excerpt("e3", "t1", "t2", "t3"),
                                excerpt("e5", "t3", "t4", "t5")),
                        10);
        assertThat(picks).extracting(Collapse.Pick::id).containsExactly("e3", "f9", "e5");
        assertThat(picks.get(0).sourceTurnIds()).containsExactly("t1", "t2", "t3");
    }

    @Test
    void aSetQuestionsNeighbouringExcerptsWaitForTheRestOfTheConversation() {
        List<Collapse.Pick> picks =
                Collapse.of(
                        List.of(
                                excerpt("a", "D1:8", "D1:9", "D1:10"),
                                excerpt("b", "D1:9", "D1:10", "D1:11"),
                                excerpt("c", "D1:10", "D1:11", "D1:12"),
                                excerpt("d", "D2:24", "D2:25", "D2:26"),
                                fact("f", "D5:3"),
                                excerpt("g", "D9:1", "D9:2")),
                        10);
        assertThat(Collapse.spread(picks, 3))
                .extracting(Collapse.Pick::id)
                .containsExactly("a", "c", "d");
        // Sharing two turns with a pick above: placed after every other, still before the limit.
        assertThat(Collapse.spread(picks, 10))
                .extracting(Collapse.Pick::id)
                .containsExactly("a", "c", "d", "f", "g", "b");
    }
}
