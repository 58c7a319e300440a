package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.llm.ChatCompletionClient;
import io.engram.llm.FakeChatServer;
import io.engram.llm.FakeChatServer.Reply;
import io.engram.llm.LlmSettings;
import io.engram.memory.MemoryType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SummarizerTest {

    private final List<ConversationTurn> session =
            new Turns()
                    .say("Alice", "hi!")
                    .say("Alice", "My budget for the Hawaii trip is $10,000.")
                    .say("Alice", "We booked flights to Maui for June 5.")
                    .say("Alice", "My sister Kate is coming with us.")
                    .say("Alice", "thanks")
                    .list();

    private final ExtractiveSummarizer extractive =
            new ExtractiveSummarizer(new HeuristicExtractor(), 4);

    @Test
    void extractiveSummaryKeepsTheSessionsFactsInOrder() {
        CandidateFact summary = extractive.summarize("s1", session).join().orElseThrow();
        assertThat(summary.type()).isEqualTo(MemoryType.EPISODIC);
        assertThat(summary.content())
                .startsWith("Conversation of Alice on 2026-03-15: ")
                .contains("$10,000")
                .contains("5 June 2026")
                .contains("Kate");
        assertThat(summary.content().indexOf("$10,000"))
                .isLessThan(summary.content().indexOf("5 June 2026"));
        assertThat(summary.sourceTurnIds()).containsExactlyInAnyOrder("t2", "t3", "t4");
        assertThat(summary.validFrom()).isEqualTo(session.get(0).ts());
    }

    @Test
    void chitChatSessionHasNoSummary() {
        assertThat(
                        extractive
                                .summarize(
                                        "s1",
                                        new Turns()
                                                .say("Bob", "hey")
                                                .say("Bob", "ok thanks")
                                                .list())
                                .join())
                .isEmpty();
    }

    @Test
    void sessionOfOnlyValueHintsHasNoSummary() {
        // What the session says is a change the planner reads against stored values; with no fact
        // of its own there is nothing to summarise, not an empty "Conversation of Dana on …: .".
        List<ConversationTurn> hints =
                new Turns()
                        .say("Dana", "mochi passed away in march, the house is so quiet now")
                        .say("Dana", "traded in the accord, got a mazda cx-5 now")
                        .list();
        ExtractionResult result =
                new HeuristicExtractor()
                        .extract(new ExtractionWindow("s2", List.of(), hints, true));
        assertThat(((ExtractionResult.Facts) result).facts())
                .isNotEmpty()
                .allMatch(f -> io.engram.extraction.statements.ValueHint.isHint(f.tags()));
        assertThat(extractive.summarize("s2", hints).join()).isEmpty();
    }

    @Test
    void llmSummaryIsUsedAndFallsBackWhenTheModelFails() throws Exception {
        try (FakeChatServer server = new FakeChatServer()) {
            LlmSummarizer llm =
                    new LlmSummarizer(
                            new ChatCompletionClient(
                                    new LlmSettings(
                                            server.baseUrl(),
                                            "m",
                                            Optional.empty(),
                                            Duration.ofSeconds(2),
                                            0,
                                            400)),
                            extractive);
            server.then(
                    Reply.content(
                            "{\"summary\": \"On 15 March 2026 Alice planned a $10,000 Hawaii trip.\", \"importance\": 0.7, \"tags\": [\"travel\"]}"));
            CandidateFact fromModel = llm.summarize("s1", session).join().orElseThrow();
            assertThat(fromModel.content())
                    .isEqualTo("On 15 March 2026 Alice planned a $10,000 Hawaii trip.");
            assertThat(fromModel.sourceTurnIds()).hasSize(session.size());

            server.then(Reply.status(500, "{}"));
            assertThat(llm.summarize("s1", session).join().orElseThrow().content())
                    .startsWith("Conversation of Alice");
            server.then(Reply.content("not json"));
            assertThat(llm.summarize("s1", session).join().orElseThrow().content())
                    .startsWith("Conversation of Alice");
        }
    }
}
