package io.engram.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.text.Text;
import org.junit.jupiter.api.Test;

class KindCuesTest {

    @Test
    void aSetQuestionIsSearchedWithTheWordsItsKindsMembersAreSaidWith() {
        String question = "What instruments does Melanie play?";
        assertThat(AttributeCues.of(question)).contains("violin", "clarinet", "guitar");
        assertThat(AttributeCues.keywords(question))
                .startsWith(Text.keywords(question) + " ")
                .contains("violin");
        assertThat(AttributeCues.of("Which cities has Jon visited?"))
                .contains("trip", "vacation")
                // The question's own words are not repeated.
                .doesNotContain("visited");
    }

    @Test
    void placesChildrenAndInterestsAreAskedForByTheirNames() {
        // People name the country, not the word "country".
        assertThat(AttributeCues.of("Which countries has Priya been to?"))
                .contains("spain", "japan", "mexico");
        assertThat(AttributeCues.of("What cities did Omar visit last year?"))
                .contains("london", "chicago", "tokyo");
        assertThat(AttributeCues.of("How many kids does Omar have?")).contains("son", "daughter");
        assertThat(AttributeCues.of("What outdoor activities does Priya enjoy?"))
                .contains("kayaking", "hiking");
        assertThat(AttributeCues.of("What are Omar's interests?")).contains("painting");
        assertThat(AttributeCues.of("What kinds of writing has Priya done?"))
                .contains("blog", "poem", "screenplay");
        assertThat(AttributeCues.of("What recommendations has Omar given Priya?"))
                .contains("suggest", "try");
    }

    @Test
    void aSetIsAskedForPastAPossessiveASignOrAPerfect() {
        // "What are Joanna's hobbies?": the plural comes after the name.
        assertThat(AttributeCues.of("What are Joanna's hobbies?")).contains("hiking", "painting");
        assertThat(
                        io.engram.query.agentic.QuestionShape.asksForSet(
                                "What are Maria's dogs' names?"))
                .isTrue();
        // "LGBTQ+" is one word before the kind.
        assertThat(AttributeCues.of("What LGBTQ+ events has Caroline participated in?"))
                .contains("parade", "conference");
        // What someone has done over time is asked of every time.
        assertThat(io.engram.query.agentic.QuestionShape.asksForSet("What has Melanie painted?"))
                .isTrue();
        assertThat(
                        io.engram.query.agentic.QuestionShape.asksForSet(
                                "Where has Maria made friends?"))
                .isTrue();
        // One thing, and a name with a possessive, ask for no set.
        assertThat(io.engram.query.agentic.QuestionShape.asksForSet("What is Joanna's job?"))
                .isFalse();
        assertThat(io.engram.query.agentic.QuestionShape.asksForSet("What are Joanna's plan?"))
                .isFalse();
    }

    @Test
    void aQuestionAboutOneThingOfAKindGetsNoMembers() {
        // Added here, the members outweighed the question's own words.
        assertThat(AttributeCues.of("What new activity did Maria start recently?")).isEmpty();
        assertThat(AttributeCues.of("Which event did John attend in June 2023?")).isEmpty();
    }

    @Test
    void aKindIsNamedByItsOwnWordsOnly() {
        // "martial arts" is not art.
        assertThat(AttributeCues.of("What martial arts has John done?"))
                .contains("karate", "taekwondo")
                .doesNotContain("painting", "sculpture");
    }

    @Test
    void everyKindHasWordsForBothSides() {
        assertThat(AttributeCues.KINDS).hasSizeGreaterThan(20);
        for (CueFamily k : AttributeCues.KINDS) {
            assertThat(k.asked()).as(k.toString()).isNotEmpty();
            assertThat(k.cues()).as(k.toString()).isNotEmpty();
            assertThat(k.cues()).allMatch(w -> w.equals(w.toLowerCase()));
        }
    }
}
