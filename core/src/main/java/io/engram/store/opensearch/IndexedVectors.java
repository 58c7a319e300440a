package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Scope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
            ObjectNode body = query.ids(page);
            body.putArray("_source").add("id").add(MemoryIndex.VECTOR_FIELD);
            OpenSearchClient.Response r =
                    client.send("POST", "/" + alias + "/_search?routing=" + query.routing(), body);
            if (!r.ok()) {
                throw new OpenSearchException(
                        "reading vectors failed: " + r.status() + " " + r.body());
            }
            for (JsonNode hit : r.body().path("hits").path("hits")) {
                JsonNode vec = hit.path("_source").path(MemoryIndex.VECTOR_FIELD);
                float[] v = new float[vec.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) vec.get(i).asDouble();
                }
                out.put(UUID.fromString(hit.path("_id").asText()), v);
            }
        }
        return out;
    }
}
