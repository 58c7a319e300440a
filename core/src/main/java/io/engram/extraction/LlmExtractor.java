package io.engram.extraction;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.ChatMessage;
import io.engram.llm.ChatOutcome;
import io.engram.llm.FailureKind;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Extracts facts with a chat model. One call per window, temperature 0.1, JSON output. The answer
 * is checked as a whole: any fact that is not of the required shape, or that cites a turn not in
 * the window, fails the window with {@link FailureKind#MALFORMED_OUTPUT} rather than storing
 * something half-right.
 */
public final class LlmExtractor implements FactExtractor {

    static final double TEMPERATURE = 0.1;
    static final int MAX_FACT_CHARS = 2000;

    static final String SYSTEM_PROMPT =
            String.join(
                    "\n",
                    "You turn a chat window into long-term memories about the people in it.",
                    "Return only a JSON object: {\"facts\": [{\"type\": \"semantic|episodic|procedural|social\","
                            + " \"content\": string, \"importance\": number 0..1, \"tags\": [string],"
                            + " \"source_turn_ids\": [turn ids]}]}.",
                    "Rules:",
                    "- Each fact must stand alone: keep its context (\"Alice's budget for the Hawaii trip is"
                            + " $10,000\", never \"the budget is $10,000\").",
                    "- Name people; never write I, me, my, you or your.",
                    "- Give absolute dates when the turn time allows (\"on 15 March 2026\", not \"yesterday\").",
                    "- semantic: facts and preferences; episodic: events that happened; procedural: how"
                            + " someone does something; social: people and relationships.",
                    "- Skip greetings, thanks, small talk, questions and the assistant's own suggestions.",
                    "- A correction (\"make that $15,000\") is a new fact with the full context and the new value.",
                    "- source_turn_ids lists the ids, in brackets below, of the turns the fact comes from.",
                    "- Turns marked CONTEXT are for understanding only; take facts from the other turns.",
                    "- If nothing is worth remembering, return {\"facts\": []}.");

    private final ChatCompletionClient client;

    public LlmExtractor(ChatCompletionClient client) {
        this.client = client;
    }

    @Override
    public String name() {
        return "llm";
    }

    @Override
    public ExtractionResult extract(ExtractionWindow window) {
        return extractAsync(window).join();
    }

    @Override
    public CompletableFuture<ExtractionResult> extractAsync(ExtractionWindow window) {
        if (window.turns().isEmpty()) {
            return CompletableFuture.completedFuture(ExtractionResult.Facts.of(List.of()));
        }
        List<ChatMessage> messages =
                List.of(ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user(render(window)));
        return client.completeAsync(messages, TEMPERATURE, true)
                .thenApply(outcome -> toResult(outcome, window));
    }

    static String render(ExtractionWindow window) {
        StringBuilder out = new StringBuilder();
        for (ConversationTurn t : window.context()) {
            line(out, t, "CONTEXT ");
        }
        for (ConversationTurn t : window.turns()) {
            line(out, t, "");
        }
        return out.toString();
    }

    private static void line(StringBuilder out, ConversationTurn t, String marker) {
        out.append(marker)
                .append('[')
                .append(t.turnId())
                .append("] (")
                .append(t.ts())
                .append(") ")
                .append(t.speakerName())
                .append(" (")
                .append(t.role().wireName())
                .append("): ")
                .append(t.content().replace('\n', ' '))
                .append('\n');
    }

    private static ExtractionResult toResult(ChatOutcome outcome, ExtractionWindow window) {
        if (outcome instanceof ChatOutcome.Failed failed) {
            return new ExtractionResult.Failed(failed.kind(), failed.reason());
        }
        ChatOutcome.Completed done = (ChatOutcome.Completed) outcome;
        try {
            List<CandidateFact> facts = parseFacts(done.content(), window);
            return new ExtractionResult.Facts(facts, done.promptTokens(), done.completionTokens());
        } catch (MalformedAnswer e) {
            return new ExtractionResult.Failed(FailureKind.MALFORMED_OUTPUT, e.getMessage());
        }
    }

    static List<CandidateFact> parseFacts(String content, ExtractionWindow window) {
        JsonNode root;
        try {
            root = ChatCompletionClient.jsonContent(content);
        } catch (Exception e) {
            throw new MalformedAnswer("answer is not JSON");
        }
        JsonNode array = root.path("facts");
        if (!array.isArray()) {
            throw new MalformedAnswer("answer has no \"facts\" array");
        }
        Map<String, Instant> turnTimes = new HashMap<>();
        window.turns().forEach(t -> turnTimes.put(t.turnId(), t.ts()));
        window.context().forEach(t -> turnTimes.put(t.turnId(), t.ts()));
        Instant windowTime = window.turns().get(window.turns().size() - 1).ts();

        List<CandidateFact> facts = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode f = array.get(i);
            String where = "facts[" + i + "]";
            MemoryType type;
            try {
                type = MemoryType.fromWire(f.path("type").asText(""));
            } catch (IllegalArgumentException e) {
                throw new MalformedAnswer(where + ".type: " + e.getMessage());
            }
            JsonNode text = f.path("content");
            if (!text.isTextual()
                    || text.asText().isBlank()
                    || text.asText().length() > MAX_FACT_CHARS) {
                throw new MalformedAnswer(
                        where
                                + ".content: must be a non-blank string of at most "
                                + MAX_FACT_CHARS
                                + " characters");
            }
            JsonNode importance = f.path("importance");
            if (!importance.isNumber() || importance.asDouble() < 0 || importance.asDouble() > 1) {
                throw new MalformedAnswer(where + ".importance: must be a number from 0 to 1");
            }
            List<String> tags = new ArrayList<>();
            for (JsonNode tag : f.path("tags")) {
                if (!tag.isTextual()) {
                    throw new MalformedAnswer(where + ".tags: must be strings");
                }
                tags.add(tag.asText());
            }
            List<String> sources = new ArrayList<>();
            Instant validFrom = null;
            for (JsonNode id : f.path("source_turn_ids")) {
                Instant ts = turnTimes.get(id.asText());
                if (!id.isTextual() || ts == null) {
                    throw new MalformedAnswer(
                            where
                                    + ".source_turn_ids: '"
                                    + id.asText()
                                    + "' is not a turn of this window");
                }
                sources.add(id.asText());
                validFrom = validFrom == null || ts.isAfter(validFrom) ? ts : validFrom;
            }
            if (sources.isEmpty()) {
                throw new MalformedAnswer(where + ".source_turn_ids: must name at least one turn");
            }
            facts.add(
                    new CandidateFact(
                            type,
                            text.asText().strip(),
                            importance.asDouble(),
                            tags,
                            sources,
                            validFrom == null ? windowTime : validFrom));
        }
        return facts;
    }

    private static final class MalformedAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedAnswer(String message) {
            super(message, null, false, false);
        }
    }
}
