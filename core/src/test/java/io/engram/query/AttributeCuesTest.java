package io.engram.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AttributeCuesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Is Dana in a relationship?|married engaged single divorced partner",
                "What car does Dana have?|drives",
                "Who is Dana's boss these days?|manager report",
                "Does Dana eat meat?|vegetarian vegan pescatarian",
                "Which city is Dana in?|lives moved",
                "Where did Dana grow up?|grew born from",
                "Has Dana ever been injured?|hurt injury sprained broke twisted",
                "Did Dana's team win the final?|won beat victory",
                "Does Dana get on with her coworkers?|colleagues workmates team",
            })
    void aQuestionNamingAnAttributeGetsTheWordsItsValuesAreStoredWith(
            String question, String cues) {
        assertThat(AttributeCues.of(question)).containsExactly(cues.split(" "));
        assertThat(AttributeCues.keywords(question)).endsWith(cues);
    }

    @Test
    void aQuestionNamingNoAttributeIsSearchedWithItsOwnWords() {
        String question = "What did Melanie paint recently?";
        assertThat(AttributeCues.of(question)).isEmpty();
        assertThat(AttributeCues.keywords(question))
                .isEqualTo(io.engram.text.Text.keywords(question));
    }
}
