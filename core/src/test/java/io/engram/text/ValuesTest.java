package io.engram.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {

    private static List<String> kinds(String text) {
        return Values.find(text).stream().map(v -> v.kind() + ":" + v.text()).toList();
    }

    @Test
    void findsAmountsDatesNumbersAndNames() {
        assertThat(kinds("Alice's budget for the Hawaii trip is $10,000."))
                .containsExactly("NAME:Alice's", "NAME:Hawaii", "MONEY:$10,000");
        assertThat(kinds("Flights on June 5, 2026 at 7:30 pm cost 1200 dollars, 15% more."))
                .containsExactly(
                        "NAME:Flights",
                        "DATE:June 5, 2026",
                        "TIME:7:30 pm",
                        "MONEY:1200 dollars",
                        "PERCENT:15%");
        assertThat(kinds("We met last week and she has two kids."))
                .containsExactly("DATE:last week", "NUMBER:two");
    }

    @Test
    void sentenceInitialCapitalsAreNotNames() {
        assertThat(kinds("The weather is nice.")).isEmpty();
        assertThat(kinds("Yesterday Bob Smith called."))
                .containsExactly("DATE:Yesterday", "NAME:Bob Smith");
    }

    @Test
    void maskReplacesValuesByKind() {
        assertThat(Values.mask("Alice's budget is $10,000")).isEqualTo("<NAME> budget is <MONEY>");
    }

    @Test
    void textHelpers() {
        assertThat(Text.sentences("I like tea. Do you? Yes!\nNew line"))
                .containsExactly("I like tea.", "Do you?", "Yes!", "New line");
        assertThat(Text.sentences("My dentist is Dr. Lee. We hiked Mt. Rainier."))
                .containsExactly("My dentist is Dr. Lee.", "We hiked Mt. Rainier.");
        assertThat(Text.contentWords("My trips to the Hawaii islands"))
                .containsExactly("trip", "hawaii", "island");
        assertThat(Text.normalizeForHash("Crème  Brûlée!")).isEqualTo("creme brulee");
    }
}
