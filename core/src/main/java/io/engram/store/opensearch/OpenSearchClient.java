package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A small OpenSearch REST client over {@link HttpClient}: JSON and NDJSON requests, asynchronous at
 * heart so the serving tier never blocks an event loop, with blocking helpers for jobs and
 * bootstrap code.
 */
public final class OpenSearchClient {

    /** A response: HTTP status and parsed JSON body (an empty object when there is none). */
    public record Response(int status, JsonNode body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;
    private final Duration timeout;

    public OpenSearchClient(String baseUrl, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.http =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
    }

    public CompletableFuture<Response> sendAsync(String method, String path, JsonNode body) {
        return sendRaw(method, path, body == null ? null : body.toString(), "application/json");
    }

    /** Sends newline-delimited JSON (bulk, msearch); each line is one JSON document. */
    public CompletableFuture<Response> sendNdjsonAsync(String path, List<JsonNode> lines) {
        StringBuilder body = new StringBuilder();
        for (JsonNode line : lines) {
            body.append(line.toString()).append('\n');
        }
        return sendRaw("POST", path, body.toString(), "application/x-ndjson");
    }

    public Response send(String method, String path, JsonNode body) {
        return join(sendAsync(method, path, body));
    }

    public Response sendNdjson(String path, List<JsonNode> lines) {
        return join(sendNdjsonAsync(path, lines));
    }

    private CompletableFuture<Response> sendRaw(
            String method, String path, String body, String contentType) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(
                                base.resolve(path.startsWith("/") ? path.substring(1) : path))
                        .timeout(timeout)
                        .header("Content-Type", contentType)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(
                        r -> {
                            try {
                                JsonNode json =
                                        r.body().length == 0
                                                ? JSON.createObjectNode()
                                                : JSON.readTree(r.body());
                                return new Response(r.statusCode(), json);
                            } catch (IOException e) {
                                throw new UncheckedIOException(
                                        "OpenSearch answered "
                                                + method
                                                + " "
                                                + path
                                                + " with non-JSON",
                                        e);
                            }
                        });
    }

    private static Response join(CompletableFuture<Response> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new OpenSearchException(
                    "OpenSearch request failed: " + e.getCause(), e.getCause());
        }
    }

    public String baseUrl() {
        return base.toString();
    }
}
