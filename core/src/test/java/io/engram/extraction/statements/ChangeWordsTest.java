package io.engram.extraction.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.text.Text;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The word check before the change pattern never turns away a sentence the pattern reads. */
class ChangeWordsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "It's Denver now.",
                "These days I run.",
                "Nowadays, tea.",
                "A NEW job!",
                "not there anymore",
                "not any more",
                "no longer there",
                "no more sugar",
                "Switched banks",
                "changed my name",
                "we moved",
                "relocated to Lyon",
                "she became my boss",
                "I'll become a dad",
                "they hired me",
                "joined Acme",
                "going forward use this",
                "from now on, tea",
                "bought a Kia",
                "adopted a cat",
                "transferred to Yale",
                "replaced it",
                "Rex passed away",
                "sold the car",
                "left Acme",
                "quit Acme",
                "I was laid off",
                "tea instead",
                "stopped running",
                "upgraded to Pro",
                "ended up in Rome",
                "closed on a house",
                "made the jump",
                "jumped ship",
                "raised my rent",
                "bumped to 60k",
                "got promoted",
                "a stretch, but ok",
                "my bike was stolen",
                "totaled the car",
                "got a dog",
                "settled in Oslo",
                "we parted ways",
                "they brought me on",
                "they took me on",
                "Dad retired",
                "traded the Civic",
                "swapped it",
                "cancelled Netflix",
                "canceled Hulu",
                "ported my number",
                "since March",
                "since last week",
                "(switched)",
                "new-ish",
                "all unpacked",
                "onboarding all week",
                "orientation today",
                "first week at Acme",
                "we got the keys",
                "officially Texan",
                "a Denver resident"
            })
    void everySentenceThePatternReadsPassesTheWordCheck(String sentence) {
        assertThat(ChangeWords.tell(sentence)).as(sentence).isTrue();
        assertThat(ChangeWords.mayTell(sentence)).as(sentence).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"I live in Denver.", "Renewed my lease", "knowhow", "sincerely yours"})
    void sentencesWithoutItsWordsFailTheWordCheck(String sentence) {
        assertThat(ChangeWords.mayTell(sentence)).as(sentence).isFalse();
        assertThat(ChangeWords.tell(sentence)).as(sentence).isFalse();
    }

    @Test
    void theWordCheckAgreesWithThePatternOnTheCorpus() throws IOException {
        List<String> sentences = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/extraction/labelled-turns.jsonl")) {
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m =
                    Pattern.compile("\"(?:text|content)\": ?\"((?:[^\"\\\\]|\\\\.)*)\"")
                            .matcher(all);
            while (m.find()) {
                sentences.addAll(Text.sentences(m.group(1)));
            }
        }
        assertThat(sentences).hasSizeGreaterThan(300);
        int told = 0;
        for (String s : sentences) {
            if (ChangeWords.tell(s)) {
                told++;
                assertThat(ChangeWords.mayTell(s)).as(s).isTrue();
            }
        }
        assertThat(told).isGreaterThan(10);
    }
}
