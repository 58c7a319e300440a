package io.engram.store.opensearch;

import java.util.List;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;
import org.opensearch.client.opensearch.core.bulk.OperationType;

/** One bulk request, with the per-item outcomes a replayed or repeated write may legally see. */
public final class Bulk {

    private Bulk() {}

    /**
     * Sends the operations; fails on the first item that did not apply, except a version conflict
     * (a newer version is already there, as a replay should find) and a missing document on delete
     * or update (already gone).
     *
     * @param refresh the bulk {@code refresh} parameter: {@code wait_for}, {@code true} or {@code
     *     false}
     */
    public static void send(
            OpenSearchClient client, List<BulkOperation> operations, String refresh) {
        if (operations.isEmpty()) {
            return;
        }
        BulkResponse response =
                OpenSearchException.call(
                        "bulk write",
                        () -> client.bulk(b -> b.operations(operations).refresh(refresh(refresh))));
        if (!response.errors()) {
            return;
        }
        for (BulkResponseItem item : response.items()) {
            int status = item.status();
            boolean gone = status == 404 && item.operationType() != OperationType.Index;
            if (status >= 300 && status != 409 && !gone) {
                throw new OpenSearchException(
                        "bulk "
                                + item.operationType().jsonValue()
                                + " of "
                                + item.id()
                                + " failed: "
                                + (item.error() == null
                                        ? status
                                        : item.error().type() + ": " + item.error().reason()),
                        OpenSearchException.transientStatus(status));
            }
        }
    }

    private static Refresh refresh(String value) {
        return switch (value) {
            case "true" -> Refresh.True;
            case "false" -> Refresh.False;
            case "wait_for" -> Refresh.WaitFor;
            default -> throw new IllegalArgumentException("refresh " + value);
        };
    }

    /** What waits between two attempts; the real one sleeps. */
    @FunctionalInterface
    public interface Pause {
        void pause(java.time.Duration d) throws InterruptedException;
    }

    /**
     * {@link #send}, tried again while OpenSearch refuses it for the moment (unreachable, 429 such
     * as a full write queue or a flood-stage block, 502–504): after 0.5 s, then twice as long each
     * time, up to {@code attempts} sends. For writes that follow a PostgreSQL commit, where a
     * failure leaves the index behind the truth: a brief overload no longer does. Sending the same
     * lines again is safe, as {@link #send} accepts what a repeated write finds.
     */
    public static void sendRetrying(
            OpenSearchClient client,
            List<BulkOperation> lines,
            String refresh,
            int attempts,
            Pause pause) {
        java.time.Duration wait = java.time.Duration.ofMillis(500);
        for (int attempt = 1; ; attempt++) {
            try {
                send(client, lines, refresh);
                return;
            } catch (OpenSearchException e) {
                if (!e.isTransient() || attempt >= attempts) {
                    throw e;
                }
                try {
                    pause.pause(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                wait = wait.multipliedBy(2);
            }
        }
    }
}
