package io.engram.client.springai;

import io.engram.client.EngramClient;
import io.engram.client.EngramException;
import io.engram.client.model.ContextBlock;
import io.engram.client.model.ContextRequest;
import io.engram.client.model.Turn;
import io.engram.client.model.TurnBatch;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * Gives the model what Engram remembers of the user, and tells Engram what was said. Before the
 * call, the user's recalled memories ({@code /v1/context}, within a token budget) are added to the
 * system message; after it, the user's message and the answer are sent as two turns. The user is
 * the conversation id ({@link ChatMemory#CONVERSATION_ID}), as for Spring AI's chat-memory
 * advisors. The user's own message is left as it is, so what is sent back is only what was said.
 * When Engram cannot answer, the call goes on without memories and the exchange is not recorded.
 */
public final class EngramMemoryAdvisor implements BaseAdvisor {

    static final String QUESTION = EngramMemoryAdvisor.class.getName() + ".question";

    private final EngramClient engram;
    private final int tokenBudget;
    private final int order;
    private final String session = "spring-ai-" + UUID.randomUUID();
    private final AtomicLong turns = new AtomicLong();

    public EngramMemoryAdvisor(EngramClient engram, int tokenBudget, int order) {
        this.engram = engram;
        this.tokenBudget = tokenBudget;
        this.order = order;
    }

    @Override
    public int getOrder() {
        return order;
    }

    @Override
    public String getName() {
        return "engram";
    }

    @Override
    public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
        UserMessage user = request.prompt().getUserMessage();
        String question = user == null ? null : user.getText();
        String userId = userOf(request.context());
        if (question == null || question.isBlank() || userId == null) {
            return request;
        }
        String block;
        try {
            ContextBlock recalled =
                    engram.context(ContextRequest.of(userId, question, tokenBudget));
            block = recalled.text();
        } catch (EngramException e) {
            block = "";
        }
        Prompt prompt = request.prompt();
        if (!block.isBlank()) {
            String memories = block;
            prompt =
                    prompt.augmentSystemMessage(
                            system ->
                                    new SystemMessage(
                                            system == null
                                                            || system.getText() == null
                                                            || system.getText().isBlank()
                                                    ? memories
                                                    : system.getText() + "\n\n" + memories));
        }
        return request.mutate().prompt(prompt).context(QUESTION, question).build();
    }

    @Override
    public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
        Object question = response.context().get(QUESTION);
        String userId = userOf(response.context());
        ChatResponse chat = response.chatResponse();
        if (question == null
                || userId == null
                || chat == null
                || chat.getResult() == null
                || chat.getResult().getOutput().getText() == null) {
            return response;
        }
        long n = turns.getAndAdd(2);
        try {
            engram.sendTurns(
                    TurnBatch.of(
                            userId,
                            session,
                            List.of(
                                    Turn.user("t" + n, question.toString()),
                                    Turn.assistant(
                                            "t" + (n + 1),
                                            chat.getResult().getOutput().getText()))));
        } catch (EngramException e) {
            // the answer stands; Engram learns from the next exchange
        }
        return response;
    }

    private static String userOf(java.util.Map<String, Object> context) {
        Object id = context.get(ChatMemory.CONVERSATION_ID);
        return id == null ? null : id.toString();
    }
}
