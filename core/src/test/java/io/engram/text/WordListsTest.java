package io.engram.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WordListsTest {

    @Test
    void sectionsHoldTheirEntriesOverLinesAndAnEntryMayHoldSpaces() {
        Map<String, Set<String>> lists =
                WordLists.sections(WordListsTest.class, "sample-lists.txt");
        assertThat(lists.keySet()).containsExactly("roles", "empty");
        assertThat(lists.get("roles"))
                .containsExactlyInAnyOrder("nurse", "social worker", "police officer");
        assertThat(lists.get("empty")).isEmpty();
    }

    @Test
    void entriesBeforeAnySectionOrAMissingResourceAreNamed() {
        assertThatThrownBy(() -> WordLists.sections(WordListsTest.class, "bad-lists.txt"))
                .hasMessageContaining("before a [section]")
                .hasMessageContaining("stray");
        assertThatThrownBy(() -> WordLists.lines(WordListsTest.class, "none.txt"))
                .hasMessageContaining("missing resource none.txt");
    }
}
