package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.llm.ChatCompletionClient;
import io.engram.llm.FailureKind;
import io.engram.llm.FakeChatServer;
import io.engram.llm.FakeChatServer.Reply;
import io.engram.llm.LlmSettings;
import io.engram.memory.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LlmExtractorTest {

    private FakeChatServer server;
    private LlmExtractor extractor;
    private final ExtractionWindow window =
            new Turns()
                    .say("Alice", "My budget for the Hawaii trip is $10,000.")
                    .assistant("Noted!")
                    .window();

    @BeforeEach
    void start() throws Exception {
        server = new FakeChatServer();
        extractor = extractorWithTimeout(Duration.ofSeconds(2));
    }

    private LlmExtractor extractorWithTimeout(Duration timeout) {
        return new LlmExtractor(
                new ChatCompletionClient(
                        new LlmSettings(
                                server.baseUrl(),
                                "test-model",
                                Optional.of("sk-test"),
                                timeout,
                                2,
                                800)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void validAnswerBecomesFactsAndTheRequestFollowsTheProtocol() {
        server.then(
                Reply.content(
                        "{\"facts\": [{\"type\": \"semantic\", \"content\": \"Alice's budget for the Hawaii trip is $10,000\","
                                + " \"importance\": 0.8, \"tags\": [\"travel\", \"budget\"], \"source_turn_ids\": [\"t1\"]}]}"));
        ExtractionResult result = extractor.extract(window);

        assertThat(result).isInstanceOf(ExtractionResult.Facts.class);
        ExtractionResult.Facts facts = (ExtractionResult.Facts) result;
        assertThat(facts.facts())
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.type()).isEqualTo(MemoryType.SEMANTIC);
                            assertThat(f.content())
                                    .isEqualTo("Alice's budget for the Hawaii trip is $10,000");
                            assertThat(f.sourceTurnIds()).containsExactly("t1");
                            assertThat(f.validFrom())
                                    .isEqualTo(Instant.parse("2026-03-15T10:00:00Z"));
                            assertThat(f.tags()).containsExactly("travel", "budget");
                        });
        assertThat(facts.promptTokens()).isEqualTo(120);
        assertThat(facts.completionTokens()).isEqualTo(40);

        var request = server.requests().get(0);
        assertThat(request.path("model").asText()).isEqualTo("test-model");
        assertThat(request.path("temperature").asDouble()).isEqualTo(0.1);
        assertThat(request.path("max_tokens").asInt()).isEqualTo(800);
        assertThat(request.path("response_format").path("type").asText()).isEqualTo("json_object");
        assertThat(request.path("messages").get(0).path("content").asText())
                .contains("stand alone");
        assertThat(request.path("messages").get(1).path("content").asText())
                .contains("[t1]")
                .contains("Alice (user): My budget for the Hawaii trip is $10,000.");
        assertThat(server.authorizations()).containsExactly("Bearer sk-test");
    }

    @Test
    void answerInACodeFenceIsAccepted() {
        server.then(Reply.content("```json\n{\"facts\": []}\n```"));
        assertThat(extractor.extract(window))
                .isEqualTo(new ExtractionResult.Facts(java.util.List.of(), 120, 40));
    }

    @Test
    void malformedJsonIsAFailureNotFacts() {
        server.then(Reply.content("Sure! Here are the facts: Alice has a budget."));
        assertFailed(extractor.extract(window), FailureKind.MALFORMED_OUTPUT, "not JSON");
        assertThat(server.calls()).as("malformed output is not retried").isEqualTo(1);
    }

    @Test
    void factsOfTheWrongShapeFailTheWholeWindow() {
        server.then(Reply.content("{\"facts\": {\"content\": \"x\"}}"));
        assertFailed(extractor.extract(window), FailureKind.MALFORMED_OUTPUT, "no \"facts\" array");
        server.then(
                Reply.content(
                        "{\"facts\": [{\"type\": \"gossip\", \"content\": \"x\", \"importance\": 0.5, \"source_turn_ids\": [\"t1\"]}]}"));
        assertFailed(extractor.extract(window), FailureKind.MALFORMED_OUTPUT, "facts[0].type");
        server.then(
                Reply.content(
                        "{\"facts\": [{\"type\": \"semantic\", \"content\": \"x\", \"importance\": 7, \"source_turn_ids\": [\"t1\"]}]}"));
        assertFailed(
                extractor.extract(window), FailureKind.MALFORMED_OUTPUT, "facts[0].importance");
        server.then(
                Reply.content(
                        "{\"facts\": [{\"type\": \"semantic\", \"content\": \"x\", \"importance\": 0.5, \"source_turn_ids\": [\"t99\"]}]}"));
        assertFailed(
                extractor.extract(window),
                FailureKind.MALFORMED_OUTPUT,
                "'t99' is not a turn of this window");
        server.then(
                Reply.content(
                        "{\"facts\": [{\"type\": \"semantic\", \"content\": \" \", \"importance\": 0.5, \"source_turn_ids\": [\"t1\"]}]}"));
        assertFailed(extractor.extract(window), FailureKind.MALFORMED_OUTPUT, "facts[0].content");
    }

    @Test
    void serverErrorsAreRetriedThenReported() {
        server.otherwise(Reply.status(500, "{\"error\": \"overloaded\"}"));
        assertFailed(extractor.extract(window), FailureKind.HTTP_ERROR, "HTTP 500");
        assertThat(server.calls()).as("one call and two retries").isEqualTo(3);
    }

    @Test
    void aTransientErrorIsRetriedToSuccess() {
        server.then(Reply.status(503, "{}")).then(Reply.content("{\"facts\": []}"));
        assertThat(extractor.extract(window)).isInstanceOf(ExtractionResult.Facts.class);
        assertThat(server.calls()).isEqualTo(2);
    }

    @Test
    void clientErrorsAreNotRetried() {
        server.otherwise(Reply.status(401, "{\"error\": \"bad key\"}"));
        assertFailed(extractor.extract(window), FailureKind.HTTP_ERROR, "HTTP 401");
        assertThat(server.calls()).isEqualTo(1);
    }

    @Test
    void slowAnswersTimeOut() {
        LlmExtractor impatient = extractorWithTimeout(Duration.ofMillis(200));
        server.otherwise(Reply.content("{\"facts\": []}").delayed(1500));
        assertFailed(impatient.extract(window), FailureKind.TIMEOUT, "timeout");
    }

    @Test
    void unreachableEndpointIsATransportFailure() {
        server.close();
        assertFailed(extractor.extract(window), FailureKind.TRANSPORT, "");
    }

    private static void assertFailed(ExtractionResult result, FailureKind kind, String reasonPart) {
        assertThat(result).isInstanceOf(ExtractionResult.Failed.class);
        ExtractionResult.Failed failed = (ExtractionResult.Failed) result;
        assertThat(failed.kind()).isEqualTo(kind);
        assertThat(failed.reason()).contains(reasonPart);
    }
}
