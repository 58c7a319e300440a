package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** One bulk request, with the per-item outcomes a replayed or repeated write may legally see. */
public final class Bulk {

    private Bulk() {}

    /**
     * Sends the lines; fails on the first item that did not apply, except a version conflict (a
     * newer version is already there, as a replay should find) and a missing document on delete or
     * update (already gone).
     *
     * @param refresh the bulk {@code refresh} parameter: {@code wait_for}, {@code true} or {@code
     *     false}
     */
    public static void send(
            OpenSearchClient client, List<? extends JsonNode> lines, String refresh) {
        if (lines.isEmpty()) {
            return;
        }
        @SuppressWarnings("unchecked")
        List<JsonNode> body = (List<JsonNode>) lines;
        OpenSearchClient.Response response = client.sendNdjson("/_bulk?refresh=" + refresh, body);
        if (!response.ok()) {
            throw new OpenSearchException(
                    "bulk write failed: " + response.status() + " " + response.body(),
                    OpenSearchException.transientStatus(response.status()));
        }
        if (!response.body().path("errors").asBoolean()) {
            return;
        }
        for (JsonNode item : response.body().path("items")) {
            String action = item.fieldNames().next();
            JsonNode result = item.path(action);
            int status = result.path("status").asInt();
            boolean gone = status == 404 && !action.equals("index");
            if (status >= 300 && status != 409 && !gone) {
                throw new OpenSearchException(
                        "bulk "
                                + action
                                + " of "
                                + result.path("_id").asText()
                                + " failed: "
                                + result.path("error"),
                        OpenSearchException.transientStatus(status));
            }
        }
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
            List<? extends JsonNode> lines,
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
