package io.engram.client.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.engram.client.EngramClient;
import io.engram.client.model.Memory;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.StoreRequest;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.llm.FakeChatServer;
import io.engram.local.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j {@code AiServices} assistant on a chat model speaking the OpenAI protocol (on
 * loopback), with Engram's retriever and chat memory, against the whole local stack: the user's
 * memories reach the prompt, and the exchange reaches Engram without them.
 */
class MemoryAssistantIT {

    @Test
    void memoriesReachThePromptAndTheExchangeReachesEngram() throws Exception {
        Path home = Files.createTempDirectory("engram-lc4j-it");
        Map<String, String> env = new java.util.HashMap<>(LocalStack.freePortSettings(home));
        env.put("ENGRAM_BOOTSTRAP_KEY", "ek_" + "8".repeat(40));
        // Every exchange (two turns) is a whole extraction window: its memories come at once
        // instead of after five exchanges or the end of the session.
        env.put("ENGRAM_EXTRACTION_WINDOW_TURNS", "2");
        env.put("ENGRAM_EXTRACTION_OVERLAP_TURNS", "1");
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        try (LocalStack stack = LocalStack.start(config);
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
            List<Memory> heard = List.of();
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            SearchRequest q = SearchRequest.of("ann", "Thai place satay green curry").forced();
            while (System.nanoTime() < end
                    && heard.stream().noneMatch(m -> m.content().contains("green curry"))) {
                Thread.sleep(250);
                heard = engram.search(q).memories();
            }
            Memory exchange =
                    heard.stream()
                            .filter(m -> m.content().contains("green curry"))
                            .findFirst()
                            .orElseThrow();
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
