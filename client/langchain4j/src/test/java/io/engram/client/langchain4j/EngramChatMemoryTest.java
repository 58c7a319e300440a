package io.engram.client.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EngramChatMemoryTest {

    @Test
    void theUsersWordsAreKeptAndTheRecalledMemoriesDropped() {
        assertThat(
                        EngramChatMemory.withoutRecalled(
                                "What should I cook?"
                                        + EngramChatMemory.RECALLED
                                        + "Ann is vegetarian."))
                .isEqualTo("What should I cook?");
        assertThat(EngramChatMemory.withoutRecalled("No memories here."))
                .isEqualTo("No memories here.");
    }
}
