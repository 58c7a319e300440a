package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.aws.RequestSigner;
import io.engram.config.EngramConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * A small blocking OpenSearch REST client over {@link HttpClient}: JSON and NDJSON requests, for
 * jobs, tools, bootstrap code and the serving tier's writes on worker threads (its reads on the
 * event loops go through a client of its own). Blocking calls also avoid the JDK client's
 * completion of asynchronous calls on the default executor, which starts a thread per call on
 * machines with fewer than three cores.
 */
public final class OpenSearchClient {

    /** A response: HTTP status and parsed JSON body (an empty object when there is none). */
    public record Response(int status, JsonNode body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /**
         * The response to {@code method path}, its body parsed (an empty body: an empty object).
         */
        public static Response of(int status, byte[] body, String method, String path) {
            try {
                JsonNode json = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
                return new Response(status, json);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "OpenSearch answered " + method + " " + path + " with non-JSON", e);
            }
        }
    }

    /**
     * Newline-delimited JSON (bulk, msearch) as UTF-8: each line one JSON document, written
     * straight to bytes (no String per line: a k-NN line carries its vector).
     */
    public static byte[] ndjson(List<JsonNode> lines) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
        try {
            for (JsonNode line : lines) {
                JSON.writeValue(body, line);
                body.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write JSON", e);
        }
        return body.toByteArray();
    }

    /** One JSON document as UTF-8 bytes. */
    private static byte[] jsonBytes(JsonNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write JSON", e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;
    private final Duration timeout;
    private final RequestSigner signer;

    /** A client that sends no credentials. */
    public OpenSearchClient(String baseUrl, Duration timeout) {
        this(baseUrl, OpenSearchAuth.NONE, timeout);
    }

    /** A client of the configured cluster, signing its requests when so configured. */
    public static OpenSearchClient forConfig(EngramConfig.OpenSearch config, Duration timeout) {
        return new OpenSearchClient(config.url(), config.auth(), timeout);
    }

    public OpenSearchClient(String baseUrl, OpenSearchAuth auth, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.signer = auth.signer();
        this.http =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
    }

    /** A JSON request; {@code body} may be null. Blocks until OpenSearch answers. */
    public Response send(String method, String path, JsonNode body) {
        return sendRaw(method, path, body == null ? null : jsonBytes(body), "application/json");
    }

    /** Sends newline-delimited JSON (bulk, msearch); each line is one JSON document. */
    public Response sendNdjson(String path, List<JsonNode> lines) {
        return sendRaw("POST", path, ndjson(lines), "application/x-ndjson");
    }

    private Response sendRaw(String method, String path, byte[] body, String contentType) {
        URI uri = base.resolve(path.startsWith("/") ? path.substring(1) : path);
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(uri)
                        .timeout(timeout)
                        .header("Content-Type", contentType)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofByteArray(body));
        signer.headers(method, uri, body).forEach(builder::header);
        HttpRequest request = builder.build();
        HttpResponse<byte[]> r;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new OpenSearchException("OpenSearch request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpenSearchException("interrupted waiting for OpenSearch", e);
        }
        return Response.of(r.statusCode(), r.body(), method, path);
    }

    public String baseUrl() {
        return base.toString();
    }
}
