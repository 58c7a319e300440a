package io.engram.query.agentic;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.ChatMessage;
import io.engram.llm.ChatOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Routing and chaining by a chat model (OpenAI wire format, temperature 0, JSON answers). An answer
 * the model does not give, or gives out of shape, completes exceptionally: the caller then asks the
 * heuristic planner and reports {@code llm} in {@code degraded}.
 */
public final class LlmRetrievalPlanner implements RetrievalPlanner {

    /** The two system prompts; either may be replaced in the configuration. */
    public record Prompts(String route, String hop) {
        public static final Prompts DEFAULT =
                new Prompts(
                        String.join(
                                "\n",
                                "You plan searches of a memory store that holds what a user said in past",
                                "conversations. For the question below choose one strategy:",
                                "- direct: one search with the question finds the answer;",
                                "- split: the question joins independent parts (two people, two questions);",
                                "  give one short search query per part (at most 3);",
                                "- chain: the answer depends on a fact another fact points to (\"the company",
                                "  of the spouse of X\", \"what did she do after the trip\") or is a set of",
                                "  things spread over many conversations; give the first search query.",
                                "Return only JSON: {\"strategy\": \"direct\"|\"split\"|\"chain\",",
                                "\"queries\": [string], \"reason\": string}."),
                        String.join(
                                "\n",
                                "You judge whether memories found so far answer a question about a user.",
                                "You get the question, the queries already searched and the memories, best",
                                "first. If they answer the question completely, return {\"sufficient\": true}.",
                                "Otherwise return {\"sufficient\": false, \"queries\": [one or two short",
                                "search queries for what is missing, using the names, places and dates the",
                                "memories mention], \"reason\": string}. Return only JSON."));

        public Prompts withDefaults() {
            return new Prompts(
                    route == null || route.isBlank() ? DEFAULT.route : route,
                    hop == null || hop.isBlank() ? DEFAULT.hop : hop);
        }
    }

    /** Memories shown to the model after a hop, and the characters of each. */
    static final int EVIDENCE_SHOWN = 8;

    static final int EVIDENCE_CHARS = 400;

    private final ChatCompletionClient client;
    private final Prompts prompts;

    public LlmRetrievalPlanner(ChatCompletionClient client, Prompts prompts) {
        this.client = client;
        this.prompts = prompts.withDefaults();
    }

    @Override
    public String name() {
        return "llm";
    }

    @Override
    public CompletableFuture<Route> route(String question, RetrievalStrategy requested) {
        return client.completeAsync(
                        List.of(ChatMessage.system(prompts.route()), ChatMessage.user(question)),
                        0.0,
                        true)
                .thenApply(outcome -> parseRoute(json(outcome), question, requested));
    }

    @Override
    public CompletableFuture<Hop> next(
            String question, List<String> asked, List<Evidence> evidence) {
        StringBuilder user = new StringBuilder();
        user.append("Question: ").append(question).append("\nSearched: ");
        user.append(String.join(" | ", asked)).append("\nMemories:\n");
        for (int i = 0; i < Math.min(EVIDENCE_SHOWN, evidence.size()); i++) {
            String c = evidence.get(i).content().replace('\n', ' ');
            user.append(i + 1)
                    .append(". ")
                    .append(c.length() > EVIDENCE_CHARS ? c.substring(0, EVIDENCE_CHARS) : c)
                    .append('\n');
        }
        return client.completeAsync(
                        List.of(
                                ChatMessage.system(prompts.hop()),
                                ChatMessage.user(user.toString())),
                        0.0,
                        true)
                .thenApply(outcome -> parseHop(json(outcome), asked));
    }

    private static JsonNode json(ChatOutcome outcome) {
        if (outcome instanceof ChatOutcome.Completed done) {
            try {
                return ChatCompletionClient.jsonContent(done.content());
            } catch (Exception e) {
                throw new CompletionException(new IllegalStateException("answer is not JSON"));
            }
        }
        ChatOutcome.Failed failed = (ChatOutcome.Failed) outcome;
        throw new CompletionException(
                new IllegalStateException(failed.kind() + ": " + failed.reason()));
    }

    static Route parseRoute(JsonNode answer, String question, RetrievalStrategy requested) {
        RetrievalStrategy chosen =
                RetrievalStrategy.parse(answer.path("strategy").asText(""))
                        .filter(s -> s != RetrievalStrategy.AUTO)
                        .orElseThrow(
                                () ->
                                        new CompletionException(
                                                new IllegalStateException("no strategy")));
        if (requested != RetrievalStrategy.AUTO) {
            chosen = requested;
        }
        List<String> queries = new ArrayList<>();
        queries.add(question);
        if (chosen == RetrievalStrategy.SPLIT) {
            queries.addAll(queries(answer, question));
        }
        String reason = answer.path("reason").asText("").strip();
        return new Route(
                chosen,
                queries.subList(0, Math.min(queries.size(), MAX_QUERIES_PER_HOP)),
                reason.isEmpty() ? "chosen by the model" : clip(reason, 200));
    }

    static Hop parseHop(JsonNode answer, List<String> asked) {
        JsonNode sufficient = answer.path("sufficient");
        if (!sufficient.isBoolean()) {
            throw new CompletionException(new IllegalStateException("no sufficiency verdict"));
        }
        String reason = clip(answer.path("reason").asText("").strip(), 200);
        if (sufficient.asBoolean()) {
            return Hop.enough(
                    reason.isEmpty() ? "the model judged the memories sufficient" : reason);
        }
        List<String> next =
                queries(answer, null).stream()
                        .filter(q -> asked.stream().noneMatch(a -> a.equalsIgnoreCase(q)))
                        .limit(MAX_QUERIES_PER_HOP)
                        .toList();
        return new Hop(false, next, reason.isEmpty() ? "the model asked for more" : reason);
    }

    private static List<String> queries(JsonNode answer, String question) {
        List<String> out = new ArrayList<>();
        for (JsonNode q : answer.path("queries")) {
            String text = q.asText("").strip();
            if (q.isTextual()
                    && !text.isEmpty()
                    && text.length() <= 300
                    && (question == null || !text.equalsIgnoreCase(question.strip()))) {
                out.add(text);
            }
        }
        return out;
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
