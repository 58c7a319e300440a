package io.engram.client.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.engram.client.EngramClient;
import io.engram.client.TestStacks;
import io.engram.client.model.Memory;
import io.engram.client.model.StoreRequest;
import io.engram.llm.FakeChatServer;
import io.engram.local.LocalStack;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j {@code AiServices} assistant on a chat model speaking the OpenAI protocol (on
 * loopback), with Engram's retriever and chat memory, against the whole local stack: the user's
 * memories reach the prompt, and the exchange reaches Engram without them.
 */
class MemoryAssistantIT {

    @Test
    void memoriesReachThePromptAndTheExchangeReachesEngram() throws Exception {
        try (LocalStack stack = TestStacks.start("lc4j-it", TestStacks.exchangeWindows());
                FakeChatServer model = new FakeChatServer()) {
            EngramClient engram = EngramClient.builder(stack.url(), stack.apiKey()).build();
            engram.store(StoreRequest.of("ann", "Ann is allergic to peanuts."));
            model.otherwise(
                    FakeChatServer.Reply.content("Then skip the satay and order the green curry."));

            MemoryAssistant assistant =
                    MemoryAssistant.create(
                            OpenAiChatModel.builder()
                                    .baseUrl(model.baseUrl())
                                    .apiKey("test-key")
                                    .modelName("test-model")
                                    .build(),
                            engram,
                            5);
            String answer =
                    assistant.chat("ann", "Can I have the peanut satay at the Thai place tonight?");
            assertThat(answer).isEqualTo("Then skip the satay and order the green curry.");

            // The prompt carried Ann's memory, after her own words.
            JsonNode sent = model.requests().get(0);
            String prompt = sent.toString();
            assertThat(prompt).contains("Can I have the peanut satay at the Thai place tonight?");
            assertThat(prompt).contains("Ann is allergic to peanuts.");

            // The exchange became turns of Ann's, without the memories the prompt carried.
            Memory exchange =
                    TestStacks.awaitMemory(
                            engram, "ann", "Thai place satay green curry", "green curry");
            assertThat(exchange.content())
                    .contains("Can I have the peanut satay at the Thai place tonight?")
                    .doesNotContain("What you remember about this user")
                    .doesNotContain("allergic");

            // Another user recalls nothing of Ann's.
            assistant.chat("bob", "Which dish should I order?");
            assertThat(model.requests().get(1).toString()).doesNotContain("peanuts");
        }
    }
}
