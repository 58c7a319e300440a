package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.events.Role;
import io.engram.memory.MemoryType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExcerptsTest {

    @Test
    void eachTurnThatSaysSomethingIsKeptWithTheTurnsBeforeIt() {
        List<ConversationTurn> turns =
                new Turns()
                        .say("Caroline", "Hey! Thanks so much.")
                        .say("Melanie", "Hi! What did you do this weekend?")
                        .say("Caroline", "I went to a LGBTQ support group yesterday.")
                        .say("Melanie", "That's so brave of you.")
                        .list();
        List<CandidateFact> excerpts =
                Excerpts.of(new ExtractionWindow("s1", List.of(), turns, false), 3, 1000);

        // The greeting alone is no excerpt; every other turn ends one.
        assertThat(excerpts)
                .extracting(e -> e.sourceTurnIds())
                .containsExactly(
                        List.of("t1", "t2"), List.of("t1", "t2", "t3"), List.of("t2", "t3", "t4"));
        CandidateFact group = excerpts.get(1);
        assertThat(group.content())
                .isEqualTo(
                        "Caroline: Hey! Thanks so much.\n"
                                + "Melanie: Hi! What did you do this weekend?\n"
                                + "Caroline: I went to a LGBTQ support group yesterday.");
        assertThat(group.type()).isEqualTo(MemoryType.EPISODIC);
        assertThat(group.tags()).containsExactly(Excerpts.TAG);
        assertThat(Excerpts.isExcerpt(group.tags())).isTrue();
        assertThat(group.validFrom()).isEqualTo(turns.get(2).ts());
    }

    @Test
    void theFirstTurnsOfAWindowTakeTheirPredecessorsFromTheContext() {
        List<ConversationTurn> all =
                new Turns()
                        .say("Ann", "We booked the cabin by the lake.")
                        .add(Role.SYSTEM, Optional.empty(), "system note")
                        .say("Ben", "Which weekend was that?")
                        .assistant("It is the first weekend of June.")
                        .list();
        ExtractionWindow window =
                new ExtractionWindow("s1", all.subList(0, 3), all.subList(3, 4), false);
        List<CandidateFact> excerpts = Excerpts.of(window, 3, 1000);

        // Only the window's own turn ends an excerpt; system turns are not part of what was said.
        assertThat(excerpts).singleElement();
        assertThat(excerpts.get(0).sourceTurnIds()).containsExactly("t1", "t3", "t4");
        assertThat(excerpts.get(0).content())
                .endsWith(
                        "Ben: Which weekend was that?\nAssistant: It is the first weekend of June.");
    }

    @Test
    void anExcerptIsAsImportantAsWhatItsLastTurnSaysOrItsBestFact() {
        List<ConversationTurn> turns =
                new Turns()
                        .say("Ann", "We walked along the coast.")
                        .say("Ann", "My budget for the trip is $3,000.")
                        .list();
        ExtractionWindow window = new ExtractionWindow("s1", List.of(), turns, false);
        List<CandidateFact> facts =
                new HeuristicExtractor().extract(window) instanceof ExtractionResult.Facts f
                        ? f.facts()
                        : List.of();
        double budget =
                facts.stream()
                        .filter(f -> f.sourceTurnIds().contains("t2"))
                        .mapToDouble(CandidateFact::importance)
                        .max()
                        .orElseThrow();

        List<CandidateFact> excerpts = Excerpts.of(window, 3, 1000, facts);
        assertThat(budget).isGreaterThan(Excerpts.IMPORTANCE);
        assertThat(excerpts.get(1).importance()).isEqualTo(budget);
        // Without facts: what the turn says about its speaker, above the floor of an excerpt.
        assertThat(Excerpts.of(window, 3, 1000).get(1).importance())
                .isEqualTo(Salience.of("My budget for the trip is $3,000."))
                .isGreaterThan(Excerpts.IMPORTANCE);
    }

    @Test
    void longTurnsAreCutAndZeroTurnsMeansNoExcerpts() {
        List<ConversationTurn> turns =
                new Turns()
                        .say("Ann", "We walked " + "very far along the coast ".repeat(20))
                        .list();
        ExtractionWindow window = new ExtractionWindow("s1", List.of(), turns, false);

        assertThat(Excerpts.of(window, 0, 1000)).isEmpty();
        String content = Excerpts.of(window, 3, 60).get(0).content();
        assertThat(content).startsWith("Ann: We walked very far").endsWith("…");
        assertThat(content).hasSize("Ann: ".length() + 60);
    }

    @Test
    void anExcerptIsEmbeddedByItsOwnTurnOnlyWhenTheModelsExcerptVectorsPay() {
        String excerpt = "Tim: What are your goals?\nJohn: Winning a championship.";
        List<String> tags = List.of(Excerpts.TAG);
        assertThat(Excerpts.vectorText(excerpt)).isEqualTo("John: Winning a championship.");
        assertThat(Excerpts.embeddedText(tags, excerpt, true))
                .contains("John: Winning a championship.");
        assertThat(Excerpts.embeddedText(tags, excerpt, false)).isEmpty();
        assertThat(Excerpts.embeddedText(List.of(), "John plays basketball.", false))
                .contains("John plays basketball.");
        assertThat(Excerpts.vectorText("one line")).isEqualTo("one line");
    }
}
