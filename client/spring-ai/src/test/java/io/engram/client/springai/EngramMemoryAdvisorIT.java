package io.engram.client.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.client.EngramClient;
import io.engram.client.TestStacks;
import io.engram.client.model.Memory;
import io.engram.client.model.StoreRequest;
import io.engram.llm.FakeChatServer;
import io.engram.local.LocalStack;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;

/**
 * A Spring AI chat client on a chat model speaking the OpenAI protocol (on loopback) with the
 * advisor, against the whole local stack: the user's memories reach the prompt, the exchange
 * reaches Engram.
 */
class EngramMemoryAdvisorIT {

    @Test
    void memoriesReachThePromptAndTheExchangeReachesEngram() throws Exception {
        try (LocalStack stack = TestStacks.start("spring-ai-it", TestStacks.exchangeWindows());
                FakeChatServer model = new FakeChatServer()) {
            EngramClient engram = EngramClient.builder(stack.url(), stack.apiKey()).build();
            engram.store(StoreRequest.of("ann", "Ann is allergic to peanuts."));
            model.otherwise(
                    FakeChatServer.Reply.content("Then skip the satay and order the green curry."));

            OpenAiChatModel chatModel =
                    OpenAiChatModel.builder()
                            .openAiApi(
                                    OpenAiApi.builder()
                                            .baseUrl(model.baseUrl().replaceFirst("/v1$", ""))
                                            .apiKey("test-key")
                                            .build())
                            .defaultOptions(OpenAiChatOptions.builder().model("test-model").build())
                            .build();
            ChatClient chat =
                    ChatClient.builder(chatModel)
                            .defaultSystem("You are a helpful assistant.")
                            .defaultAdvisors(new EngramMemoryAdvisor(engram, 300, 0))
                            .build();
            String question = "Can I have the peanut satay at the Thai place tonight?";
            String answer =
                    chat.prompt()
                            .user(question)
                            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "ann"))
                            .call()
                            .content();
            assertThat(answer).isEqualTo("Then skip the satay and order the green curry.");

            // The system message carried Ann's memory; her own message is as she wrote it.
            String prompt = model.requests().get(0).toString();
            assertThat(prompt).contains("You are a helpful assistant.");
            assertThat(prompt).contains("Ann is allergic to peanuts.");
            assertThat(prompt).contains(question);

            // The exchange became turns of Ann's.
            Memory exchange =
                    TestStacks.awaitMemory(
                            engram, "ann", "Thai place satay green curry", "green curry");
            assertThat(exchange.content()).contains(question).doesNotContain("allergic");

            // Another conversation recalls nothing of Ann's.
            chat.prompt()
                    .user("Which dish should I order?")
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "bob"))
                    .call()
                    .content();
            assertThat(model.requests().get(1).toString()).doesNotContain("peanuts");
        }
    }
}
