package io.engram.jobs.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.memory.Scope;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClient;
import io.engram.store.opensearch.OpenSearchException;
import java.util.ArrayList;
import java.util.List;

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
        ObjectNode body = query.all();
        body.put("size", limit);
        body.putArray("sort").addObject().putObject("created_at").put("order", "desc");
        OpenSearchClient.Response r =
                client.send("POST", "/" + alias + "/_search?routing=" + query.routing(), body);
        if (!r.ok()) {
            throw new OpenSearchException(
                    "cannot load memories of "
                            + scope.routing()
                            + ": "
                            + r.status()
                            + " "
                            + r.body());
        }
        List<Memory> out = new ArrayList<>();
        for (JsonNode hit : r.body().path("hits").path("hits")) {
            out.add(MemoryDocuments.fromSource(hit.path("_source")));
        }
        return out;
    }
}
