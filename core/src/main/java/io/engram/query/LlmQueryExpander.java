package io.engram.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.ChatMessage;
import io.engram.llm.ChatOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Auxiliary questions from a chat model (temperature 0.3), falling back to the heuristic expander
 * when the model fails or answers out of shape.
 */
public final class LlmQueryExpander implements QueryExpander {

    static final double TEMPERATURE = 0.3;
    static final String SYSTEM_PROMPT =
            String.join(
                    "\n",
                    "A user asked an assistant the question below. The assistant can search its memories",
                    "about this user. Write two short questions about the user whose answers would help",
                    "answer the question but which the question itself would not find (for \"what should I",
                    "get my wife for her birthday?\": \"what are the wife's hobbies?\", \"what does the wife",
                    "like?\"). Return only JSON: {\"questions\": [string, string]}.");

    private final ChatCompletionClient client;
    private final HeuristicQueryExpander fallback = new HeuristicQueryExpander();

    public LlmQueryExpander(ChatCompletionClient client) {
        this.client = client;
    }

    @Override
    public String name() {
        return "llm";
    }

    @Override
    public CompletableFuture<List<String>> expand(String query) {
        return client.completeAsync(
                        List.of(ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user(query)),
                        TEMPERATURE,
                        true)
                .thenApply(outcome -> parse(outcome, query));
    }

    private List<String> parse(ChatOutcome outcome, String query) {
        if (outcome instanceof ChatOutcome.Completed done) {
            try {
                JsonNode questions =
                        ChatCompletionClient.jsonContent(done.content()).path("questions");
                List<String> out = new ArrayList<>();
                for (JsonNode q : questions) {
                    String text = q.asText("").strip();
                    if (q.isTextual()
                            && !text.isEmpty()
                            && text.length() <= 300
                            && !text.equalsIgnoreCase(query.strip())) {
                        out.add(text);
                    }
                }
                if (!out.isEmpty()) {
                    return out.stream().limit(MAX_AUXILIARY).toList();
                }
            } catch (Exception e) {
                // fall through to the heuristic questions
            }
        }
        return fallback.expandNow(query);
    }
}
