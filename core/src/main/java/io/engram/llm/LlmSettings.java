package io.engram.llm;

import java.time.Duration;
import java.util.Optional;

/**
 * How to reach an OpenAI-compatible chat-completions endpoint.
 *
 * @param baseUrl up to and including the version segment, e.g. {@code https://api.openai.com/v1}
 * @param apiKey sent as a bearer token when present
 * @param timeout per attempt
 * @param maxRetries further attempts after a timeout, a transport error, 429 or 5xx
 */
public record LlmSettings(
        String baseUrl,
        String model,
        Optional<String> apiKey,
        Duration timeout,
        int maxRetries,
        int maxTokens) {

    @Override
    public String toString() {
        return "LlmSettings[baseUrl="
                + baseUrl
                + ", model="
                + model
                + ", apiKey="
                + (apiKey.isPresent() ? "***" : "none")
                + ", timeout="
                + timeout
                + ", maxRetries="
                + maxRetries
                + ", maxTokens="
                + maxTokens
                + "]";
    }
}
