package io.engram.client.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import io.engram.client.EngramClient;

/**
 * An assistant that remembers its users through Engram: each question is augmented with the user's
 * recalled memories, and each exchange is sent to Engram after the answer.
 */
public interface MemoryAssistant {

    String chat(@MemoryId String userId, @UserMessage String message);

    /** The assistant on {@code model}, recalling at most {@code memories} per question. */
    static MemoryAssistant create(ChatModel model, EngramClient engram, int memories) {
        return AiServices.builder(MemoryAssistant.class)
                .chatModel(model)
                .retrievalAugmentor(
                        DefaultRetrievalAugmentor.builder()
                                .contentRetriever(new EngramContentRetriever(engram, memories))
                                .contentInjector(EngramChatMemory.INJECTOR)
                                .build())
                .chatMemoryProvider(id -> new EngramChatMemory(id, engram, 20))
                .build();
    }
}
