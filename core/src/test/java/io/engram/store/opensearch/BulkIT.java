package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.services.SharedServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bulk writes against a real node, including the refusals it lifts later. */
class BulkIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDEX = "engram-bulk-it";

    private static OpenSearchClient client;

    @BeforeAll
    static void createIndex() {
        client = new OpenSearchClient(SharedServices.openSearch().url(), Duration.ofSeconds(30));
        ObjectNode body = JSON.createObjectNode();
        body.putObject("mappings").putObject("properties").putObject("n").put("type", "integer");
        assertThat(client.send("PUT", "/" + INDEX, body).ok()).isTrue();
    }

    @Test
    void aWriteRefusedForTheMomentIsSentAgainOnceTheRefusalIsLifted() {
        block(true);
        List<Duration> pauses = new ArrayList<>();
        Bulk.sendRetrying(
                client,
                doc("lifted", "1"),
                "true",
                5,
                d -> {
                    // What a node over its flood-stage watermark does once disk is freed.
                    pauses.add(d);
                    block(false);
                });

        assertThat(pauses).containsExactly(Duration.ofMillis(500));
        assertThat(
                        client.send("GET", "/" + INDEX + "/_doc/lifted", null)
                                .body()
                                .path("found")
                                .asBoolean())
                .isTrue();
    }

    @Test
    void aRefusalThatLastsFailsAfterTheAttemptsWithWaitsThatDouble() {
        block(true);
        List<Duration> pauses = new ArrayList<>();
        try {
            assertThatThrownBy(
                            () ->
                                    Bulk.sendRetrying(
                                            client, doc("kept-out", "1"), "true", 3, pauses::add))
                    .isInstanceOfSatisfying(
                            OpenSearchException.class, e -> assertThat(e.isTransient()).isTrue())
                    .hasMessageContaining("kept-out");
        } finally {
            block(false);
        }
        assertThat(pauses).containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1));
    }

    @Test
    void aWriteOpenSearchRejectsIsNotSentAgain() {
        List<Duration> pauses = new ArrayList<>();
        assertThatThrownBy(
                        () ->
                                Bulk.sendRetrying(
                                        client,
                                        doc("wrong", "\"not a number\""),
                                        "true",
                                        5,
                                        pauses::add))
                .isInstanceOfSatisfying(
                        OpenSearchException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining("wrong");
        assertThat(pauses).isEmpty();
    }

    /** The block a node puts on its indexes past the flood-stage disk watermark. */
    private static void block(boolean on) {
        ObjectNode settings = JSON.createObjectNode();
        if (on) {
            settings.put("index.blocks.read_only_allow_delete", true);
        } else {
            settings.putNull("index.blocks.read_only_allow_delete");
        }
        assertThat(client.send("PUT", "/" + INDEX + "/_settings", settings).ok()).isTrue();
    }

    private static List<JsonNode> doc(String id, String n) {
        try {
            return List.of(
                    JSON.readTree(
                            "{\"index\":{\"_index\":\"" + INDEX + "\",\"_id\":\"" + id + "\"}}"),
                    JSON.readTree("{\"n\":" + n + "}"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
