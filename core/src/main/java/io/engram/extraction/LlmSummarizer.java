package io.engram.extraction;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.ChatMessage;
import io.engram.llm.ChatOutcome;
import io.engram.memory.MemoryType;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A session summary written by a chat model, falling back to the extractive summary when the model
 * fails or answers out of shape.
 */
public final class LlmSummarizer implements SessionSummarizer {

    static final String SYSTEM_PROMPT =
            String.join(
                    "\n",
                    "Summarise the finished chat session below as one episodic memory.",
                    "Return only JSON: {\"summary\": string, \"importance\": number 0..1, \"tags\": [string]}.",
                    "Name the people, give the date, keep every amount, date, name and decision verbatim,",
                    "never write I, me, my, you or your, and use at most 120 words.");

    private final ChatCompletionClient client;
    private final ExtractiveSummarizer fallback;

    public LlmSummarizer(ChatCompletionClient client, ExtractiveSummarizer fallback) {
        this.client = client;
        this.fallback = fallback;
    }

    @Override
    public CompletableFuture<Optional<CandidateFact>> summarize(
            String sessionId, List<ConversationTurn> turns) {
        if (turns.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        String transcript =
                LlmExtractor.render(new ExtractionWindow(sessionId, List.of(), turns, true));
        return client.completeAsync(
                        List.of(ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user(transcript)),
                        0.1,
                        true)
                .thenApply(
                        outcome ->
                                parse(outcome, turns)
                                        .or(() -> fallback.summarizeNow(sessionId, turns)));
    }

    private static Optional<CandidateFact> parse(
            ChatOutcome outcome, List<ConversationTurn> turns) {
        if (!(outcome instanceof ChatOutcome.Completed done)) {
            return Optional.empty();
        }
        try {
            JsonNode root = ChatCompletionClient.jsonContent(done.content());
            String summary = root.path("summary").asText("").strip();
            double importance = root.path("importance").asDouble(0.5);
            if (summary.isEmpty()
                    || summary.length() > LlmExtractor.MAX_FACT_CHARS
                    || importance < 0
                    || importance > 1) {
                return Optional.empty();
            }
            List<String> tags = new java.util.ArrayList<>();
            root.path("tags").forEach(t -> tags.add(t.asText()));
            return Optional.of(
                    new CandidateFact(
                            MemoryType.EPISODIC,
                            summary,
                            importance,
                            tags,
                            turns.stream().map(ConversationTurn::turnId).toList(),
                            turns.get(0).ts()));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
