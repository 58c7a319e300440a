package io.engram.extraction;

import static io.engram.extraction.DanaTells.DANA;
import static io.engram.extraction.DanaTells.T;
import static io.engram.extraction.DanaTells.axes;
import static org.assertj.core.api.Assertions.assertThat;

import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.UserMemories;
import io.engram.extraction.statements.ChangeMention;
import io.engram.memory.MemoryChange;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A later turn that names a statement's value beside words of change, in words no reader gives the
 * new value from: the statement stops being current, contradicted by that turn's excerpt. Nothing
 * is stored as said, and look-alikes (someone else's news, plans, the value's name doing something)
 * mark nothing.
 */
class ChangeMentionsTest {

    private static final HeuristicExtractor EXTRACTOR = new HeuristicExtractor();

    /** The facts of one turn of Dana's and its excerpt, as the job makes them. */
    private static List<CandidateFact> said(String words, Instant at) {
        ExtractionWindow w = DanaTells.turnOf(words, at);
        List<CandidateFact> facts =
                new ArrayList<>(((ExtractionResult.Facts) EXTRACTOR.extract(w)).facts());
        facts.addAll(Excerpts.of(w, 3, 1000, List.copyOf(facts)));
        return facts;
    }

    private record Told(List<ChangePlanner.Planned> first, List<ChangePlanner.Planned> later) {}

    private static Told tell(String before, Instant beforeAt, String after, Instant afterAt) {
        return tell(before, beforeAt, after, afterAt, true);
    }

    /** As the job tells them, or without the later turn's excerpt ({@code excerpt} false). */
    private static Told tell(
            String before, Instant beforeAt, String after, Instant afterAt, boolean excerpt) {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        List<CandidateFact> one = said(before, beforeAt);
        List<ChangePlanner.Planned> first =
                planner.plan(
                        DANA,
                        Optional.of("s1"),
                        "conversation",
                        one,
                        axes(one, 0),
                        known,
                        beforeAt);
        List<CandidateFact> two =
                said(after, afterAt).stream()
                        .filter(f -> excerpt || !Excerpts.isExcerpt(f.tags()))
                        .toList();
        List<ChangePlanner.Planned> later =
                planner.plan(
                        DANA,
                        Optional.of("s2"),
                        "conversation",
                        two,
                        axes(two, one.size()),
                        known,
                        afterAt);
        return new Told(first, later);
    }

    private static String statement(List<ChangePlanner.Planned> planned) {
        return planned.stream()
                .map(p -> p.change().memory())
                .filter(m -> !Excerpts.isExcerpt(m.tags()))
                .findFirst()
                .orElseThrow()
                .content();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I drive a 2016 Skoda Fabia.|the fabia finally died on the a1 lol",
                "I bank with Thornbury Savings.|everything's moved over from thornbury, the app was"
                        + " a joke",
                "I'm learning Italian on Babbel.|deleted babbel 😤 streak gone",
                "My favourite band is The Lanterns.|cant stand the lanterns anymore after that tour",
                "I'm single.|not single anymore 👀 been seeing someone since june",
                "I play hockey for the Riverside Otters.|otters folded 😭 not enough players",
                "I commute by tram.|got a scooter, tram pass cancelled",
                "I'm vegan.|had cheese on my pizza last night, not vegan anymore lol",
                "My favourite food is pho.|pho has been dethroned, its all about laksa",
                "I'm a member of the Sierra Club.|sierra club membership lapsed and i'm not"
                        + " bothering",
                "I play volleyball on Mondays.|wrecked my knee 🙃 so that's volleyball done for"
                        + " me",
                "I play bass in a band called The Night Owls.|the night owls have split, drama lol",
                "I'm doing a PhD at Kent.|withdrew from the phd, no regrets",
                "I'm doing keto.|keto is over, ate a whole loaf today",
            })
    void aLaterTurnThatTellsTheValueChangedContradictsIt(String before, String after) {
        Told told = tell(before, T, after, T.plus(Duration.ofDays(30)));
        List<MemoryChange.Contradicted> marks =
                told.later().stream()
                        .map(ChangePlanner.Planned::change)
                        .filter(MemoryChange.Contradicted.class::isInstance)
                        .map(MemoryChange.Contradicted.class::cast)
                        .toList();
        assertThat(marks).as(after).hasSize(1);
        assertThat(marks.get(0).memory().content()).isEqualTo(statement(told.first()));
        // The excerpt of the later turn, created in the same batch, is what contradicts it.
        assertThat(
                        told.later().stream()
                                .map(p -> p.change().memory())
                                .filter(m -> Excerpts.isExcerpt(m.tags()))
                                .map(m -> m.id()))
                .containsExactly(marks.get(0).by());
        assertThat(told.later()).extracting(p -> p.decision().kind()).doesNotContain("supersede");
        assertThat(told.later())
                .extracting(p -> p.change().memory().tags())
                .noneMatch(tags -> tags.contains(ChangeMention.TAG));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I drive a Skoda Fabia.|my sister's fabia finally died lol",
                "I drive a Skoda Fabia.|the fabia might die soon, the clutch is going",
                "I drive a Skoda Fabia.|still driving the fabia, it refuses to die",
                "I bank with Thornbury Savings.|thornbury closed my local branch, so annoying",
                "I bank with Thornbury Savings.|a friend closed her thornbury account",
                "I'm learning Italian on Babbel.|babbel deleted my streak by mistake?!",
                "I play hockey for the Riverside Otters.|the otters moved training to thursdays",
                "I play hockey for the Riverside Otters.|if the otters fold i'll cry",
                "My favourite band is The Lanterns.|he said the lanterns broke up years ago but"
                        + " no, they're touring",
                "I'm vegan.|my bf is not vegan anymore, he caved",
                "I work at Lumen Labs.|just switched desks at lumen labs, window seat now",
                "Nate loves coconut milk.|you can use coconut oil instead of butter",
                "I'm lactose intolerant.|trying almond milk instead, since im lactose intolerant",
                "I drive a Skoda Fabia.|phone died in the fabia lol",
                "I drive a Skoda Fabia.|left my fabia unlocked again",
                "I drive a Skoda Fabia.|moved the fabia so the bins could get out",
                "I drive a Skoda Fabia.|dropped the fabia off for its mot",
                "I'm doing keto.|is keto over? everyone at work quit it",
                "I play bass in a band called The Night Owls.|split a pizza with the night owls"
                        + " after rehearsal",
                "I play volleyball on Mondays.|volleyball season is over till spring, sad",
                "My gym is Iron Temple.|iron temple is closed for 2 weeks for a refurb so im doing"
                        + " home workouts in the meantime",
            })
    void theSameWordsOfSomeoneElsesOrOfNoChangeMarkNothing(String before, String after) {
        Told told = tell(before, T, after, T.plus(Duration.ofDays(30)));
        assertThat(told.later())
                .as(after)
                .extracting(p -> p.decision().kind())
                .doesNotContain("contradict", "supersede");
    }

    @Test
    void aTurnSaidBeforeTheStatementContradictsNothing() {
        // An older session replayed late: "the fabia died" was said before "I drive a Fabia".
        Told told =
                tell(
                        "I drive a 2016 Skoda Fabia.",
                        T,
                        "the fabia finally died lol",
                        T.minusSeconds(3600));
        assertThat(told.later()).extracting(p -> p.decision().kind()).doesNotContain("contradict");
    }

    @Test
    void withoutTheTurnsExcerptNothingIsMarked() {
        Told told =
                tell(
                        "I drive a 2016 Skoda Fabia.",
                        T,
                        "the fabia finally died on the a1 lol",
                        T.plus(Duration.ofDays(30)),
                        false);
        assertThat(told.later()).extracting(p -> p.decision().kind()).doesNotContain("contradict");
    }

    @Test
    void whatTheBatchSaysAfterTheSentenceStands() {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        List<CandidateFact> one = said("I drive a 2016 Skoda Fabia.", T);
        planner.plan(DANA, Optional.of("s1"), "conversation", one, axes(one, 0), known, T);
        Instant at = T.plus(Duration.ofDays(30));
        ExtractionWindow w =
                new ExtractionWindow(
                        "s2",
                        List.of(),
                        List.of(
                                new ConversationTurn(
                                        "u1",
                                        io.engram.events.Role.USER,
                                        Optional.of("Dana"),
                                        "the fabia finally died on the a1 lol",
                                        at),
                                new ConversationTurn(
                                        "u2",
                                        io.engram.events.Role.USER,
                                        Optional.of("Dana"),
                                        "jk the garage fixed it. I drive a 2016 Skoda Fabia.",
                                        at.plusSeconds(60))),
                        false);
        List<CandidateFact> two =
                new ArrayList<>(((ExtractionResult.Facts) EXTRACTOR.extract(w)).facts());
        two.addAll(Excerpts.of(w, 3, 1000, List.copyOf(two)));
        assertThat(
                        planner.plan(
                                DANA,
                                Optional.of("s2"),
                                "conversation",
                                two,
                                axes(two, one.size()),
                                known,
                                at.plusSeconds(60)))
                .extracting(p -> p.decision().kind())
                .doesNotContain("contradict", "supersede");
    }

    @Test
    void aVeryLongSentenceGivesAShortReason() {
        String said = "the fabia finally died " + "😭".repeat(11_000);
        Told told = tell("I drive a 2016 Skoda Fabia.", T, said, T.plus(Duration.ofDays(30)));
        List<MemoryChange.Contradicted> marks =
                told.later().stream()
                        .map(ChangePlanner.Planned::change)
                        .filter(MemoryChange.Contradicted.class::isInstance)
                        .map(MemoryChange.Contradicted.class::cast)
                        .toList();
        assertThat(marks).hasSize(1);
        // A change's reason crosses the job's operators as a string of at most 64 KB.
        assertThat(marks.get(0).reason().length()).isLessThan(400);
    }
}
