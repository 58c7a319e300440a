package io.engram.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * HTTP for the client: JSON in snake_case both ways, the API key on every call, retries of 429 and
 * 503 answers (which leave nothing half done) after their {@code Retry-After} or a growing pause,
 * problem documents turned into {@link EngramException}s.
 */
final class Transport {

    static final ObjectMapper JSON =
            new ObjectMapper()
                    .registerModule(new JavaTimeModule())
                    .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                    .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);

    /** The longest pause a {@code Retry-After} may ask for before the call gives up instead. */
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

    private final HttpClient http;
    private final URI base;
    private final String apiKey;
    private final Duration timeout;
    private final int maxRetries;
    private final Duration firstPause;

    Transport(
            HttpClient http,
            URI base,
            String apiKey,
            Duration timeout,
            int maxRetries,
            Duration firstPause) {
        this.http = http;
        this.base = base;
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.maxRetries = maxRetries;
        this.firstPause = firstPause;
    }

    /** An answer: its status, headers and JSON body (null when empty). */
    record Answer(
            int status, Map<String, java.util.List<String>> headers, JsonNode body, byte[] raw) {
        Optional<String> header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                    return Optional.of(e.getValue().get(0));
                }
            }
            return Optional.empty();
        }
    }

    <T> CompletableFuture<T> call(
            String method, String path, Object body, Map<String, String> headers, Class<T> type) {
        return send(method, path, body, headers).thenApply(a -> convert(a.body(), type));
    }

    <T> CompletableFuture<T> call(String method, String path, Object body, TypeReference<T> type) {
        return send(method, path, body, Map.of())
                .thenApply(a -> a.body() == null ? null : JSON.convertValue(a.body(), type));
    }

    static <T> T convert(JsonNode body, Class<T> type) {
        if (type == Void.class || body == null) {
            return null;
        }
        return JSON.convertValue(body, type);
    }

    /** Sends, retrying 429 and 503; completes with a 2xx answer or an {@link EngramException}. */
    CompletableFuture<Answer> send(
            String method, String path, Object body, Map<String, String> headers) {
        byte[] bytes;
        try {
            bytes = body == null ? null : JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new EngramException("cannot encode " + body, e));
        }
        HttpRequest.Builder b =
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(timeout)
                        .header("Accept", "application/json")
                        .method(
                                method,
                                bytes == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (bytes != null) {
            b.header("Content-Type", "application/json");
        }
        if (apiKey != null) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        headers.forEach(b::header);
        return attempt(b.build(), 0);
    }

    private CompletableFuture<Answer> attempt(HttpRequest request, int retry) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .handle(
                        (response, err) -> {
                            if (err != null) {
                                Throwable cause =
                                        err instanceof CompletionException && err.getCause() != null
                                                ? err.getCause()
                                                : err;
                                throw new CompletionException(
                                        new EngramException(
                                                request.method()
                                                        + " "
                                                        + request.uri().getPath()
                                                        + ": no answer ("
                                                        + cause
                                                        + ")",
                                                cause));
                            }
                            return response;
                        })
                .thenCompose(
                        response -> {
                            Answer answer = answer(response);
                            int status = answer.status();
                            if (status >= 200 && status < 300) {
                                return CompletableFuture.completedFuture(answer);
                            }
                            Duration pause = pause(answer, retry);
                            if ((status == 429 || status == 503)
                                    && retry < maxRetries
                                    && pause != null) {
                                Executor later =
                                        CompletableFuture.delayedExecutor(
                                                pause.toMillis(), TimeUnit.MILLISECONDS);
                                return CompletableFuture.supplyAsync(() -> null, later)
                                        .thenCompose(v -> attempt(request, retry + 1));
                            }
                            return CompletableFuture.failedFuture(problem(answer));
                        });
    }

    /** The pause before the next attempt: Retry-After when given, else doubling; null: give up. */
    private Duration pause(Answer answer, int retry) {
        Optional<String> after = answer.header("Retry-After");
        if (after.isPresent()) {
            try {
                Duration asked = Duration.ofSeconds(Long.parseLong(after.get().trim()));
                return asked.compareTo(LONGEST_PAUSE) > 0 ? null : asked;
            } catch (NumberFormatException e) {
                // an HTTP date: fall back to our own pause
            }
        }
        return firstPause.multipliedBy(1L << Math.min(retry, 10));
    }

    private static Answer answer(HttpResponse<byte[]> response) {
        JsonNode body = null;
        byte[] bytes = response.body();
        if (bytes != null && bytes.length > 0) {
            try {
                body = JSON.readTree(bytes);
            } catch (IOException e) {
                body = null;
            }
        }
        return new Answer(response.statusCode(), response.headers().map(), body, bytes);
    }

    private static EngramException problem(Answer a) {
        JsonNode b = a.body();
        String requestId =
                b != null && b.hasNonNull("request_id")
                        ? b.get("request_id").asText()
                        : a.header("X-Request-Id").orElse(null);
        return EngramException.of(
                a.status(),
                b == null ? null : b.path("type").asText(null),
                b == null ? null : b.path("title").asText(null),
                b == null ? null : b.path("detail").asText(null),
                requestId);
    }
}
