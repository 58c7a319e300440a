package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.memory.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.search.Hit;

/** Reads the stored vectors of memories back from the index (PostgreSQL does not hold them). */
public final class IndexedVectors {

    private static final int PAGE = 1000;

    private IndexedVectors() {}

    /** The vectors of those {@code ids} that are indexed in {@code scope}; others are absent. */
    public static Map<UUID, float[]> fetch(
            OpenSearchClient client, String alias, Scope scope, List<UUID> ids) {
        Map<UUID, float[]> out = new HashMap<>();
        for (int from = 0; from < ids.size(); from += PAGE) {
            List<String> page = new ArrayList<>();
            ids.subList(from, Math.min(ids.size(), from + PAGE))
                    .forEach(id -> page.add(id.toString()));
            MemoryQuery query = MemoryQuery.forScope(scope).includeHistory(true);
            SearchResponse<JsonNode> r =
                    OpenSearchException.call(
                            "reading vectors",
                            () ->
                                    client.search(
                                            s ->
                                                    s.index(alias)
                                                            .routing(query.routing())
                                                            .query(query.ids(page))
                                                            .size(page.size())
                                                            .source(
                                                                    c ->
                                                                            c.filter(
                                                                                    f ->
                                                                                            f
                                                                                                    .includes(
                                                                                                            "id",
                                                                                                            MemoryIndex
                                                                                                                    .VECTOR_FIELD))),
                                            JsonNode.class));
            for (Hit<JsonNode> hit : r.hits().hits()) {
                JsonNode vec = hit.source().path(MemoryIndex.VECTOR_FIELD);
                float[] v = new float[vec.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) vec.get(i).asDouble();
                }
                out.put(UUID.fromString(hit.id()), v);
            }
        }
        return out;
    }
}
