package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.services.SharedServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/** Bulk writes against a real node, including the refusals it lifts later. */
class BulkIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDEX = "engram-bulk-it";

    private static OpenSearchClient client;

    @BeforeAll
    static void createIndex() throws Exception {
        client =
                OpenSearchClients.create(SharedServices.openSearch().url(), Duration.ofSeconds(30));
        assertThat(
                        client.indices()
                                .create(
                                        c ->
                                                c.index(INDEX)
                                                        .mappings(
                                                                m ->
                                                                        m.properties(
                                                                                "n",
                                                                                p ->
                                                                                        p.integer(
                                                                                                i ->
                                                                                                        i))))
                                .acknowledged())
                .isTrue();
    }

    @Test
    void aWriteRefusedForTheMomentIsSentAgainOnceTheRefusalIsLifted() throws Exception {
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
        assertThat(client.get(g -> g.index(INDEX).id("lifted"), JsonNode.class).found()).isTrue();
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
        IndexInspection.blockWrites(client, INDEX, on);
    }

    private static List<BulkOperation> doc(String id, String n) {
        try {
            JsonNode source = JSON.readTree("{\"n\":" + n + "}");
            return List.of(
                    BulkOperation.of(b -> b.index(i -> i.index(INDEX).id(id).document(source))));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
