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
                    "bulk write failed: " + response.status() + " " + response.body());
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
                                + result.path("error"));
            }
        }
    }
}
