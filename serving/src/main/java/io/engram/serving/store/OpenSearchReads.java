package io.engram.serving.store;

import io.engram.store.opensearch.OpenSearchAuth;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.transport.TransportOptions;

/**
 * The serving tier's asynchronous typed client on the event loops, its calls as Vert.x futures
 * completed on the calling event loop.
 */
public final class OpenSearchReads implements AutoCloseable {

    private final VertxTransport transport;
    private final OpenSearchAsyncClient client;

    public OpenSearchReads(
            Vertx vertx, String baseUrl, OpenSearchAuth auth, long timeoutMs, int maxConnections) {
        this(new VertxTransport(vertx, baseUrl, auth.signer(), timeoutMs, maxConnections), null);
    }

    private OpenSearchReads(VertxTransport transport, TransportOptions options) {
        this.transport = transport;
        this.client = new OpenSearchAsyncClient(transport, options);
    }

    /** A call of the typed client. */
    @FunctionalInterface
    public interface Call<T> {
        CompletableFuture<T> call(OpenSearchAsyncClient client) throws IOException;
    }

    /** The outcome of {@code call}, as a future; a call that cannot be made fails it. */
    public <T> Future<T> call(Call<T> call) {
        CompletableFuture<T> started;
        try {
            started = call.call(client);
        } catch (IOException | RuntimeException e) {
            return Future.failedFuture(e);
        }
        return Future.fromCompletionStage(started);
    }

    /** The same connections with other options (a {@code filter_path}, say) on every call. */
    public OpenSearchReads withOptions(TransportOptions options) {
        return new OpenSearchReads(transport, options);
    }

    @Override
    public void close() {
        transport.close();
    }
}
