package io.engram.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * A client of the OpenAI chat-completions wire format ({@code POST <base>/chat/completions}), which
 * most model servers speak. Retries timeouts, transport errors, 429 and 5xx with exponential
 * back-off; never throws for a failed call, returning {@link ChatOutcome.Failed} instead.
 */
public final class ChatCompletionClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmSettings settings;
    private final HttpClient http;
    private final URI endpoint;

    public ChatCompletionClient(LlmSettings settings) {
        this.settings = settings;
        this.http =
                HttpClient.newBuilder()
                        .connectTimeout(settings.timeout())
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
        String base =
                settings.baseUrl().endsWith("/") ? settings.baseUrl() : settings.baseUrl() + "/";
        this.endpoint = URI.create(base).resolve("chat/completions");
    }

    public LlmSettings settings() {
        return settings;
    }

    /** Blocking call, for code that already runs off the latency path. */
    public ChatOutcome complete(
            List<ChatMessage> messages, double temperature, boolean jsonOutput) {
        return completeAsync(messages, temperature, jsonOutput).join();
    }

    public CompletableFuture<ChatOutcome> completeAsync(
            List<ChatMessage> messages, double temperature, boolean jsonOutput) {
        String body = requestBody(messages, temperature, jsonOutput);
        return attempt(body, 0);
    }

    private CompletableFuture<ChatOutcome> attempt(String body, int attempt) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(endpoint)
                        .timeout(settings.timeout())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body));
        settings.apiKey().ifPresent(k -> request.header("Authorization", "Bearer " + k));
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .handle(
                        (response, error) -> {
                            ChatOutcome outcome =
                                    error != null ? transportFailure(error) : parse(response);
                            if (retryable(outcome, response) && attempt < settings.maxRetries()) {
                                long delayMs = 100L << Math.min(attempt, 6);
                                return CompletableFuture.supplyAsync(
                                                () -> (Void) null,
                                                CompletableFuture.delayedExecutor(
                                                        delayMs, TimeUnit.MILLISECONDS))
                                        .thenCompose(v -> attempt(body, attempt + 1));
                            }
                            return CompletableFuture.completedFuture(outcome);
                        })
                .thenCompose(f -> f);
    }

    private static boolean retryable(ChatOutcome outcome, HttpResponse<String> response) {
        if (!(outcome instanceof ChatOutcome.Failed failed)) {
            return false;
        }
        return switch (failed.kind()) {
            case TIMEOUT, TRANSPORT -> true;
            case HTTP_ERROR ->
                    response != null
                            && (response.statusCode() == 429 || response.statusCode() >= 500);
            case MALFORMED_OUTPUT -> false;
        };
    }

    private static ChatOutcome transportFailure(Throwable error) {
        Throwable cause =
                error instanceof CompletionException && error.getCause() != null
                        ? error.getCause()
                        : error;
        if (cause instanceof HttpTimeoutException) {
            return new ChatOutcome.Failed(FailureKind.TIMEOUT, "no answer within the timeout");
        }
        if (cause instanceof ConnectException) {
            return new ChatOutcome.Failed(
                    FailureKind.TRANSPORT, "cannot connect: " + cause.getMessage());
        }
        return new ChatOutcome.Failed(
                FailureKind.TRANSPORT,
                cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }

    private static ChatOutcome parse(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            String body = response.body() == null ? "" : response.body();
            return new ChatOutcome.Failed(
                    FailureKind.HTTP_ERROR,
                    "HTTP "
                            + response.statusCode()
                            + ": "
                            + body.substring(0, Math.min(200, body.length())));
        }
        try {
            JsonNode root = JSON.readTree(response.body());
            JsonNode content = root.path("choices").path(0).path("message").path("content");
            if (!content.isTextual()) {
                return new ChatOutcome.Failed(
                        FailureKind.MALFORMED_OUTPUT,
                        "no choices[0].message.content in the answer");
            }
            JsonNode usage = root.path("usage");
            return new ChatOutcome.Completed(
                    content.asText(),
                    usage.path("prompt_tokens").asInt(0),
                    usage.path("completion_tokens").asInt(0));
        } catch (Exception e) {
            return new ChatOutcome.Failed(
                    FailureKind.MALFORMED_OUTPUT, "answer is not JSON: " + e.getMessage());
        }
    }

    private String requestBody(List<ChatMessage> messages, double temperature, boolean jsonOutput) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", settings.model());
        body.put("temperature", temperature);
        body.put("max_tokens", settings.maxTokens());
        ArrayNode list = body.putArray("messages");
        for (ChatMessage m : messages) {
            list.addObject().put("role", m.role()).put("content", m.content());
        }
        if (jsonOutput) {
            body.putObject("response_format").put("type", "json_object");
        }
        return body.toString();
    }

    /** The JSON object in a model's answer, tolerating a Markdown code fence around it. */
    public static JsonNode jsonContent(String content) throws java.io.IOException {
        String text = content.strip();
        if (text.startsWith("```")) {
            int firstNewline = text.indexOf('\n');
            int lastFence = text.lastIndexOf("```");
            if (firstNewline > 0 && lastFence > firstNewline) {
                text = text.substring(firstNewline + 1, lastFence).strip();
            }
        }
        return JSON.readTree(text);
    }
}
