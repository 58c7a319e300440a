package io.engram.store.opensearch.wire;

import io.engram.aws.RequestSigner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.opensearch.client.transport.Endpoint;
import org.opensearch.client.transport.TransportOptions;

/**
 * The typed client's transport for jobs, tools, bootstrap code and the serving tier's writes on
 * worker threads: the JDK's HTTP client, blocking, with pooled keep-alive connections, every
 * request signed by the AWS SDK's signer when so configured. Blocking calls avoid the JDK client's
 * completion of asynchronous calls on its default executor, which starts a thread per call on
 * machines with fewer than three cores.
 */
public final class JdkTransport extends EngramTransport {

    private final URI base;
    private final HttpClient http;
    private final Duration timeout;
    private final RequestSigner signer;

    public JdkTransport(String baseUrl, RequestSigner signer, Duration timeout) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        this.timeout = timeout;
        this.signer = signer;
        this.http =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
    }

    @Override
    public <RequestT, ResponseT, ErrorT> ResponseT performRequest(
            RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint,
            @Nullable TransportOptions requestOptions)
            throws IOException {
        OpenSearchWire.Outgoing out =
                OpenSearchWire.encode(
                        request, endpoint, requestOptions == null ? options() : requestOptions);
        String path = out.pathAndQuery();
        URI uri = base.resolve(path.startsWith("/") ? path.substring(1) : path);
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(uri)
                        .timeout(timeout)
                        .method(
                                out.method(),
                                out.body() == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofByteArray(out.body()));
        if (out.contentType() != null) {
            builder.header("Content-Type", out.contentType());
        }
        for (Map.Entry<String, String> h : endpoint.headers(request).entrySet()) {
            builder.header(h.getKey(), h.getValue());
        }
        signer.headers(out.method(), uri, out.body()).forEach(builder::header);
        HttpResponse<byte[]> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for OpenSearch", e);
        }
        return OpenSearchWire.decode(
                response.statusCode(),
                response.body(),
                endpoint,
                out.method() + " " + path,
                out.filtered());
    }

    /** The blocking call, completed: callers of this transport are worker threads. */
    @Override
    public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(
            RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint,
            @Nullable TransportOptions requestOptions) {
        try {
            return CompletableFuture.completedFuture(
                    performRequest(request, endpoint, requestOptions));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        // The JDK client's connections close with it when it is collected.
    }
}
