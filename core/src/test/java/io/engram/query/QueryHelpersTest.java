package io.engram.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.llm.ChatCompletionClient;
import io.engram.llm.FakeChatServer;
import io.engram.llm.FakeChatServer.Reply;
import io.engram.llm.LlmSettings;
import io.engram.query.QueryRewriter.HistoryMessage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryHelpersTest {

    @Test
    void greetingsAndTrivialMessagesSkipMemory() {
        assertThat(RecallGate.decide("hi", false))
                .isEqualTo(new RecallGate.Verdict(false, "greeting or acknowledgement"));
        assertThat(RecallGate.decide("Thanks so much!", false).search()).isFalse();
        assertThat(RecallGate.decide("ok", false).search()).isFalse();
        assertThat(RecallGate.decide("nah man", false).reason()).contains("shorter than 10");
        assertThat(RecallGate.decide("What is my budget for Hawaii?", false).search()).isTrue();
    }

    @Test
    void personalPronounsAndForceOverrideTheShortMessageRule() {
        assertThat(RecallGate.decide("my car?", false))
                .isEqualTo(new RecallGate.Verdict(true, "short but about the user"));
        assertThat(RecallGate.decide("hi", true).search()).isTrue();
    }

    @Test
    void vagueFollowUpGetsKeyTermsFromRecentUserMessages() {
        List<HistoryMessage> history =
                List.of(
                        new HistoryMessage("user", "I'm planning the Hawaii trip with my sister."),
                        new HistoryMessage("assistant", "Sounds fun! Anything I can help with?"));
        QueryRewriter.Rewrite rewrite = QueryRewriter.rewrite("how much?", history);
        assertThat(rewrite.rewritten()).isTrue();
        assertThat(rewrite.addedTerms()).contains("hawaii", "trip", "sister");
        assertThat(rewrite.query()).endsWith("how much?").contains("hawaii");
    }

    @Test
    void specificQueriesAreLeftAlone() {
        QueryRewriter.Rewrite rewrite =
                QueryRewriter.rewrite(
                        "What is the budget for the Hawaii trip?",
                        List.of(new HistoryMessage("user", "Tell me about Kate")));
        assertThat(rewrite.rewritten()).isFalse();
        assertThat(rewrite.query()).isEqualTo("What is the budget for the Hawaii trip?");
        assertThat(QueryRewriter.rewrite("how much?", List.of()).rewritten()).isFalse();
    }

    @Test
    void giftForAPersonAsksAboutThatPersonsInterests() {
        List<String> aux =
                new HeuristicQueryExpander().expandNow("What gift should I get for my wife?");
        assertThat(aux).hasSize(2);
        assertThat(aux.get(0)).isEqualTo("wife's hobbies and interests");
        assertThat(
                        new HeuristicQueryExpander()
                                .expandNow("What restaurant would you recommend for dinner?"))
                .allMatch(q -> q.contains("restaurant") || q.contains("dinner"));
        assertThat(new HeuristicQueryExpander().expandNow("Where does Alice live?"))
                .hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void llmExpanderAsksForTwoQuestionsAndFallsBack() throws Exception {
        try (FakeChatServer server = new FakeChatServer()) {
            LlmQueryExpander expander =
                    new LlmQueryExpander(
                            new ChatCompletionClient(
                                    new LlmSettings(
                                            server.baseUrl(),
                                            "m",
                                            Optional.empty(),
                                            Duration.ofSeconds(2),
                                            0,
                                            200)));
            server.then(
                    Reply.content(
                            "{\"questions\": [\"What are the wife's hobbies?\", \"What does the wife like?\", \"extra\"]}"));
            assertThat(expander.expand("gift for my wife").join())
                    .containsExactly("What are the wife's hobbies?", "What does the wife like?");
            assertThat(server.requests().get(0).path("temperature").asDouble()).isEqualTo(0.3);

            server.then(Reply.status(500, "{}"));
            assertThat(expander.expand("gift for my wife").join())
                    .contains("wife's hobbies and interests");
            server.then(Reply.content("{\"questions\": 42}"));
            assertThat(expander.expand("gift for my wife").join())
                    .contains("wife's hobbies and interests");
        }
    }
}
