package io.engram.jobs.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.memory.Scope;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchException;
import java.util.ArrayList;
import java.util.List;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.search.Hit;

/** Reads a user's most recent current memories, with vectors, from the index. */
public final class KnownMemoryLoader {

    private final OpenSearchClient client;
    private final String alias;

    public KnownMemoryLoader(OpenSearchClient client, String alias) {
        this.client = client;
        this.alias = alias;
    }

    public List<Memory> load(Scope scope, int limit) {
        // Excerpts are records of what was said, never decided against.
        MemoryQuery query = MemoryQuery.forScope(scope).excludeTags(List.of(Excerpts.TAG));
        SearchResponse<JsonNode> r =
                OpenSearchException.call(
                        "loading the memories of " + scope.routing(),
                        () ->
                                client.search(
                                        s ->
                                                s.index(alias)
                                                        .routing(query.routing())
                                                        .query(query.all())
                                                        .size(limit)
                                                        .sort(
                                                                o ->
                                                                        o.field(
                                                                                f ->
                                                                                        f.field(
                                                                                                        "created_at")
                                                                                                .order(
                                                                                                        SortOrder
                                                                                                                .Desc))),
                                        JsonNode.class));
        List<Memory> out = new ArrayList<>();
        for (Hit<JsonNode> hit : r.hits().hits()) {
            out.add(MemoryDocuments.fromSource(hit.source()));
        }
        return out;
    }
}
