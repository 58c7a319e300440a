package io.engram.serving.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.aws.RequestSigner;
import io.engram.store.opensearch.OpenSearchAuth;
import io.engram.store.opensearch.OpenSearchClient;
import io.engram.store.opensearch.OpenSearchClient.Response;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.List;

/**
 * OpenSearch's REST API from the serving tier, on Vert.x's own HTTP client: a request and its
 * answer stay on the calling event loop, with pooled keep-alive connections. (The JDK's client
 * completes every asynchronous call on its default executor, which on a machine with fewer than
 * three cores starts a new thread per call.)
 */
public final class OpenSearchHttp implements AutoCloseable {

    private final HttpClientAgent http;
    private final String base;
    private final long timeoutMs;
    private final RequestSigner signer;

    /** A client that sends no credentials. */
    public OpenSearchHttp(Vertx vertx, String baseUrl, long timeoutMs, int maxConnections) {
        this(vertx, baseUrl, OpenSearchAuth.NONE, timeoutMs, maxConnections);
    }

    public OpenSearchHttp(
            Vertx vertx, String baseUrl, OpenSearchAuth auth, long timeoutMs, int maxConnections) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeoutMs = timeoutMs;
        this.signer = auth.signer();
        this.http =
                vertx.createHttpClient(
                        new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                        new PoolOptions().setHttp1MaxSize(maxConnections));
    }

    /** A JSON request; {@code body} may be null. */
    public Future<Response> send(String method, String path, JsonNode body) {
        return sendRaw(
                method,
                path,
                body == null ? null : Buffer.buffer(body.toString()),
                "application/json");
    }

    /** A newline-delimited JSON request (msearch, bulk): each element is one line. */
    public Future<Response> sendNdjson(String path, List<JsonNode> lines) {
        return sendRaw(
                "POST",
                path,
                Buffer.buffer(OpenSearchClient.ndjson(lines)),
                "application/x-ndjson");
    }

    private Future<Response> sendRaw(String method, String path, Buffer body, String contentType) {
        String uri = base + (path.startsWith("/") ? path : "/" + path);
        RequestOptions options =
                new RequestOptions()
                        .setMethod(HttpMethod.valueOf(method))
                        .setAbsoluteURI(uri)
                        .setTimeout(timeoutMs)
                        .putHeader(HttpHeaders.CONTENT_TYPE, contentType);
        if (signer != RequestSigner.NONE) {
            URI parsed = URI.create(uri);
            // The Host the signature covers, whatever the client would have sent.
            options.putHeader(HttpHeaders.HOST, RequestSigner.host(parsed));
            try {
                signer.headers(method, parsed, body == null ? null : body.getBytes())
                        .forEach(options::putHeader);
            } catch (RuntimeException e) {
                // No credentials to sign with (expired and not renewable): a failed request,
                // which recall degrades on, never an exception out of the event loop's call.
                return Future.failedFuture(e);
            }
        }
        return http.request(options)
                .compose(request -> body == null ? request.send() : request.send(body))
                .compose(
                        response ->
                                response.body()
                                        .map(
                                                bytes ->
                                                        Response.of(
                                                                response.statusCode(),
                                                                bytes.getBytes(),
                                                                method,
                                                                path)));
    }

    @Override
    public void close() {
        http.close();
    }
}
