package io.engram.serving.store;

import io.engram.aws.RequestSigner;
import io.engram.store.opensearch.wire.EngramTransport;
import io.engram.store.opensearch.wire.OpenSearchWire;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.opensearch.client.transport.Endpoint;
import org.opensearch.client.transport.TransportOptions;

/**
 * The typed client's transport on Vert.x's own HTTP client, for the serving tier's reads on the
 * event loops: a request and its answer stay on the calling event loop, with pooled keep-alive
 * connections, and the response is decoded there (the JDK's client completes every asynchronous
 * call on its default executor, which on a machine with fewer than three cores starts a new thread
 * per call). Requests are signed by the AWS SDK's signer when so configured.
 */
public final class VertxTransport extends EngramTransport {

    private final HttpClientAgent http;
    private final String base;
    private final long timeoutMs;
    private final RequestSigner signer;

    public VertxTransport(
            Vertx vertx, String baseUrl, RequestSigner signer, long timeoutMs, int maxConnections) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeoutMs = timeoutMs;
        this.signer = signer;
        this.http =
                vertx.createHttpClient(
                        new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                        new PoolOptions().setHttp1MaxSize(maxConnections));
    }

    /** Not for the event loops: the serving tier's blocking calls use the JDK transport. */
    @Override
    public <RequestT, ResponseT, ErrorT> ResponseT performRequest(
            RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint,
            @Nullable TransportOptions requestOptions) {
        throw new UnsupportedOperationException(
                "the Vert.x transport is asynchronous only; use the asynchronous client");
    }

    @Override
    public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(
            RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint,
            @Nullable TransportOptions requestOptions) {
        CompletableFuture<ResponseT> result = new CompletableFuture<>();
        OpenSearchWire.Outgoing out;
        RequestOptions options;
        try {
            out =
                    OpenSearchWire.encode(
                            request, endpoint, requestOptions == null ? options() : requestOptions);
            options = requestOptions(out, endpoint.headers(request));
        } catch (RuntimeException e) {
            // No credentials to sign with (expired and not renewable), or a request that cannot
            // be written: a failed call, which recall degrades on, never an exception out of the
            // event loop's call.
            result.completeExceptionally(e);
            return result;
        }
        String requestLine = out.method() + " " + out.pathAndQuery();
        http.request(options)
                .compose(r -> out.body() == null ? r.send() : r.send(Buffer.buffer(out.body())))
                .compose(
                        response ->
                                response.body()
                                        .map(
                                                body ->
                                                        new Answer(
                                                                response.statusCode(),
                                                                body.getBytes())))
                .onComplete(
                        done -> {
                            if (done.failed()) {
                                result.completeExceptionally(done.cause());
                                return;
                            }
                            try {
                                result.complete(
                                        OpenSearchWire.decode(
                                                done.result().status(),
                                                done.result().body(),
                                                endpoint,
                                                requestLine,
                                                out.filtered()));
                            } catch (IOException | RuntimeException e) {
                                result.completeExceptionally(e);
                            }
                        });
        return result;
    }

    private record Answer(int status, byte[] body) {}

    private RequestOptions requestOptions(
            OpenSearchWire.Outgoing out, Map<String, String> headers) {
        String uri = base + (out.pathAndQuery().startsWith("/") ? "" : "/") + out.pathAndQuery();
        RequestOptions options =
                new RequestOptions()
                        .setMethod(HttpMethod.valueOf(out.method()))
                        .setAbsoluteURI(uri)
                        .setTimeout(timeoutMs);
        if (out.contentType() != null) {
            options.putHeader(HttpHeaders.CONTENT_TYPE, out.contentType());
        }
        headers.forEach(options::putHeader);
        if (signer != RequestSigner.NONE) {
            URI parsed = URI.create(uri);
            // The Host the signature covers, whatever the client would have sent.
            options.putHeader(HttpHeaders.HOST, RequestSigner.host(parsed));
            signer.headers(out.method(), parsed, out.body()).forEach(options::putHeader);
        }
        return options;
    }

    @Override
    public void close() {
        http.close();
    }
}
