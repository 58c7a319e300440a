package io.engram.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextTest {

    @Test
    void keywordsDropTheWordsEveryQuestionHas() {
        assertThat(Text.keywords("When did Caroline go to the LGBTQ support group?"))
                .isEqualTo("caroline go lgbtq support group");
        assertThat(Text.keywords("What's Melanie's favourite book?"))
                .isEqualTo("melanie's favourite book");
        // Nothing but stopwords: the text as asked.
        assertThat(Text.keywords("What did you do?")).isEqualTo("What did you do?");
    }
}
