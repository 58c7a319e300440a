package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.search.Hit;
import org.opensearch.client.opensearch.indices.IndexSettings;

/** What tests read back from an index, through the typed client. */
public final class IndexInspection {

    private IndexInspection() {}

    /** Makes every write so far searchable. */
    public static void refresh(OpenSearchClient client, String index) {
        run(() -> client.indices().refresh(r -> r.index(index)));
    }

    /** How many documents of {@code query}'s scope (and filters) the index holds. */
    public static long count(OpenSearchClient client, String index, MemoryQuery query) {
        return run(
                () ->
                        client.count(
                                        c ->
                                                c.index(index)
                                                        .routing(query.routing())
                                                        .query(query.all()))
                                .count());
    }

    /** How many documents of the index match {@code query}. */
    public static long count(OpenSearchClient client, String index, Query query) {
        return run(() -> client.count(c -> c.index(index).query(query)).count());
    }

    /** How many documents the index holds. */
    public static long count(OpenSearchClient client, String index) {
        return run(() -> client.count(c -> c.index(index)).count());
    }

    /** The sources of up to {@code size} documents matching {@code query}. */
    public static List<JsonNode> sources(
            OpenSearchClient client, String index, Query query, int size) {
        List<JsonNode> out = new ArrayList<>();
        for (Hit<JsonNode> hit :
                run(
                        () ->
                                client.search(
                                                s -> s.index(index).query(query).size(size),
                                                JsonNode.class)
                                        .hits()
                                        .hits())) {
            out.add(hit.source());
        }
        return out;
    }

    /** The hits of {@code query} under {@code routing}, sources included. */
    public static List<Hit<JsonNode>> hits(
            OpenSearchClient client, String index, String routing, Query query, int size) {
        return run(
                () ->
                        client.search(
                                        s ->
                                                s.index(index)
                                                        .routing(routing)
                                                        .query(query)
                                                        .size(size),
                                        JsonNode.class)
                                .hits()
                                .hits());
    }

    /** The ids of {@code query}'s hits under {@code routing}. */
    public static List<String> ids(
            OpenSearchClient client, String index, String routing, Query query, int size) {
        List<String> out = new ArrayList<>();
        hits(client, index, routing, query, size).forEach(h -> out.add(h.id()));
        return out;
    }

    /** The one index {@code alias} points at. */
    public static String aliasTarget(OpenSearchClient client, String alias) {
        return IndexBootstrap.indicesOf(client, alias).iterator().next();
    }

    /**
     * Sets or lifts the block a node puts on an index past its flood-stage disk watermark: its
     * writes are answered 429 meanwhile.
     */
    public static void blockWrites(OpenSearchClient client, String index, boolean on) {
        IndexSettings blocked =
                IndexSettings.of(st -> st.index(ix -> ix.blocks(b -> b.readOnlyAllowDelete(on))));
        boolean acknowledged =
                run(
                        () ->
                                client.indices()
                                        .putSettings(p -> p.index(index).settings(blocked))
                                        .acknowledged());
        if (!acknowledged) {
            throw new IllegalStateException("block of " + index + " not acknowledged");
        }
    }

    /** A query for documents with every one of these field values: field, value, field, ... */
    public static Query allOf(String... fieldsAndValues) {
        List<Query> terms = new ArrayList<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            String field = fieldsAndValues[i];
            String value = fieldsAndValues[i + 1];
            terms.add(Query.of(q -> q.term(t -> t.field(field).value(FieldValue.of(value)))));
        }
        return Query.of(q -> q.bool(b -> b.filter(terms)));
    }

    /** A call of the typed client in a test: its I/O failures unchecked. */
    public interface Call<T> {
        T call() throws IOException;
    }

    public static <T> T run(Call<T> call) {
        try {
            return call.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
