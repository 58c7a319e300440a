package io.engram.query.agentic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.FakeChatServer;
import io.engram.llm.LlmSettings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class LlmRetrievalPlannerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static LlmRetrievalPlanner planner(FakeChatServer server) {
        return new LlmRetrievalPlanner(
                new ChatCompletionClient(
                        new LlmSettings(
                                server.baseUrl(),
                                "test-model",
                                Optional.empty(),
                                Duration.ofSeconds(5),
                                0,
                                256)),
                LlmRetrievalPlanner.Prompts.DEFAULT);
    }

    @Test
    void theModelsSplitIsSearchedBesideTheQuestion() throws Exception {
        try (FakeChatServer server = new FakeChatServer()) {
            server.then(
                    FakeChatServer.Reply.content(
                            "{\"strategy\": \"split\", \"queries\": [\"Jon's job\", \"Gina's"
                                    + " job\"], \"reason\": \"two people\"}"));
            RetrievalPlanner.Route route =
                    planner(server)
                            .route("What jobs do Jon and Gina have?", RetrievalStrategy.AUTO)
                            .get();
            assertThat(route.strategy()).isEqualTo(RetrievalStrategy.SPLIT);
            assertThat(route.queries())
                    .containsExactly("What jobs do Jon and Gina have?", "Jon's job", "Gina's job");
            assertThat(route.reason()).isEqualTo("two people");
            // The prompt is the routing one, the question the user message.
            String sent = server.requests().get(0).toString();
            assertThat(sent)
                    .contains("direct", "split", "chain", "What jobs do Jon and Gina have?");
        }
    }

    @Test
    void theModelJudgesAHopAndNamesWhatIsMissing() throws Exception {
        try (FakeChatServer server = new FakeChatServer()) {
            server.then(
                    FakeChatServer.Reply.content(
                            "{\"sufficient\": false, \"queries\": [\"Where does Bob Smith"
                                    + " work?\"], \"reason\": \"the husband's employer\"}"));
            server.then(FakeChatServer.Reply.content("{\"sufficient\": true}"));
            LlmRetrievalPlanner p = planner(server);
            String q = "Where does Alice's husband work?";
            RetrievalPlanner.Hop hop =
                    p.next(
                                    q,
                                    List.of(q),
                                    List.of(
                                            new RetrievalPlanner.Evidence(
                                                    "Alice's husband is Bob Smith.", 1)))
                            .get();
            assertThat(hop.sufficient()).isFalse();
            assertThat(hop.queries()).containsExactly("Where does Bob Smith work?");
            assertThat(server.requests().get(0).toString())
                    .contains("Alice's husband is Bob Smith.");
            assertThat(p.next(q, List.of(q), List.of()).get().sufficient()).isTrue();
        }
    }

    @Test
    void anAnswerOutOfShapeOrAFailureCompletesExceptionally() throws Exception {
        try (FakeChatServer server = new FakeChatServer()) {
            server.then(FakeChatServer.Reply.content("{\"strategy\": \"sideways\"}"));
            server.then(FakeChatServer.Reply.content("not json at all"));
            server.then(FakeChatServer.Reply.content("{\"queries\": []}"));
            server.otherwise(FakeChatServer.Reply.status(500, "{}"));
            LlmRetrievalPlanner p = planner(server);
            assertThatThrownBy(() -> p.route("q?", RetrievalStrategy.AUTO).get())
                    .isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> p.route("q?", RetrievalStrategy.AUTO).get())
                    .isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> p.next("q?", List.of("q?"), List.of()).get())
                    .isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> p.route("q?", RetrievalStrategy.AUTO).get())
                    .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void aRequestedStrategyOverridesTheModelsChoice() {
        RetrievalPlanner.Route route =
                LlmRetrievalPlanner.parseRoute(
                        JSON.createObjectNode().put("strategy", "split"),
                        "Where do I work?",
                        RetrievalStrategy.CHAIN);
        assertThat(route.strategy()).isEqualTo(RetrievalStrategy.CHAIN);
        assertThat(route.queries()).containsExactly("Where do I work?");
    }
}
