package io.engram.client.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.input.PromptTemplate;
import dev.langchain4j.rag.content.injector.ContentInjector;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import io.engram.client.EngramClient;
import io.engram.client.EngramException;
import io.engram.client.model.Turn;
import io.engram.client.model.TurnBatch;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chat memory that keeps the recent window for the model, as LangChain4j's own does, and sends
 * each exchange to Engram once the model has answered: the user's message and the answer become two
 * turns of the session. The chat memory id is the Engram user. A send that fails is dropped (the
 * chat goes on); Engram learns from the next one.
 *
 * <p>The user's message is sent without the memories a retrieval added to it (with {@link
 * #INJECTOR} as the content injector): otherwise every recall would be stored again as something
 * the user said.
 */
public final class EngramChatMemory implements ChatMemory {

    /** What separates the user's words from the recalled memories in an augmented message. */
    public static final String RECALLED = "\n\nWhat you remember about this user:\n";

    /** A content injector that appends the recalled memories after {@link #RECALLED}. */
    public static final ContentInjector INJECTOR =
            DefaultContentInjector.builder()
                    .promptTemplate(
                            PromptTemplate.from("{{userMessage}}" + RECALLED + "{{contents}}"))
                    .build();

    private final Object id;
    private final EngramClient engram;
    private final ChatMemory window;
    private final String sessionId;
    private final AtomicInteger turn = new AtomicInteger();
    private UserMessage asked;

    public EngramChatMemory(Object id, EngramClient engram, int windowMessages) {
        this.id = id;
        this.engram = engram;
        this.window = MessageWindowChatMemory.withMaxMessages(windowMessages);
        this.sessionId = "lc4j-" + UUID.randomUUID();
    }

    @Override
    public Object id() {
        return id;
    }

    @Override
    public void add(ChatMessage message) {
        window.add(message);
        if (message instanceof UserMessage user) {
            asked = user;
        } else if (message instanceof AiMessage answer
                && answer.text() != null
                && !answer.hasToolExecutionRequests()
                && asked != null) {
            record(withoutRecalled(asked.singleText()), answer.text());
            asked = null;
        }
    }

    private void record(String question, String answer) {
        int n = turn.getAndAdd(2);
        try {
            engram.sendTurns(
                    TurnBatch.of(
                            id.toString(),
                            sessionId,
                            List.of(
                                    Turn.user("t" + n, question),
                                    Turn.assistant("t" + (n + 1), answer))));
        } catch (EngramException e) {
            // the chat goes on without this exchange in Engram
        }
    }

    /** The user's own words of a message a retrieval augmented. */
    static String withoutRecalled(String text) {
        int at = text.indexOf(RECALLED);
        return at < 0 ? text : text.substring(0, at);
    }

    /** The session Engram files the exchanges under. */
    public String sessionId() {
        return sessionId;
    }

    @Override
    public List<ChatMessage> messages() {
        return window.messages();
    }

    @Override
    public void clear() {
        window.clear();
        asked = null;
    }
}
