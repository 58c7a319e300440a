package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;

/**
 * Makes sure the memory index alias exists and points at a concrete index with a valid mapping.
 * Idempotent: an existing alias is only validated.
 */
public final class IndexBootstrap {

    private static final ObjectMapper JSON = new ObjectMapper();

    private IndexBootstrap() {}

    /** The outcome: the alias, the concrete index behind it, and whether it was created now. */
    public record Result(String alias, String index, boolean created) {}

    public static Result ensure(OpenSearchClient client, String alias, int shards, int replicas) {
        OpenSearchClient.Response existing = client.send("GET", "/_alias/" + alias, null);
        if (existing.status() == 200) {
            Iterator<String> names = existing.body().fieldNames();
            String index = names.next();
            if (names.hasNext()) {
                throw new IllegalStateException(
                        "alias " + alias + " points at more than one index");
            }
            validateLive(client, index);
            return new Result(alias, index, false);
        }
        if (existing.status() != 404) {
            throw new OpenSearchException(
                    "cannot read alias "
                            + alias
                            + ": "
                            + existing.status()
                            + " "
                            + existing.body());
        }
        String index = alias + "-000001";
        ObjectNode body = MemoryIndex.createBody(shards, replicas);
        body.putObject("aliases").putObject(alias).put("is_write_index", true);
        OpenSearchClient.Response created = client.send("PUT", "/" + index, body);
        if (!created.ok()) {
            if (created.body()
                    .path("error")
                    .path("type")
                    .asText()
                    .equals("resource_already_exists_exception")) {
                return ensure(client, alias, shards, replicas);
            }
            throw new OpenSearchException(
                    "cannot create index "
                            + index
                            + ": "
                            + created.status()
                            + " "
                            + created.body());
        }
        validateLive(client, index);
        return new Result(alias, index, true);
    }

    /** Creates a new concrete index for {@code alias} without pointing the alias at it. */
    public static String createIndex(
            OpenSearchClient client, String index, int shards, int replicas) {
        OpenSearchClient.Response created =
                client.send("PUT", "/" + index, MemoryIndex.createBody(shards, replicas));
        if (!created.ok()) {
            throw new OpenSearchException(
                    "cannot create index "
                            + index
                            + ": "
                            + created.status()
                            + " "
                            + created.body());
        }
        return index;
    }

    /** Atomically points {@code alias} at {@code index} only. */
    public static void switchAlias(OpenSearchClient client, String alias, String index) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode actions = body.putArray("actions");
        OpenSearchClient.Response current = client.send("GET", "/_alias/" + alias, null);
        if (current.status() == 200) {
            current.body()
                    .fieldNames()
                    .forEachRemaining(
                            old ->
                                    actions.addObject()
                                            .putObject("remove")
                                            .put("index", old)
                                            .put("alias", alias));
        }
        actions.addObject()
                .putObject("add")
                .put("index", index)
                .put("alias", alias)
                .put("is_write_index", true);
        OpenSearchClient.Response r = client.send("POST", "/_aliases", body);
        if (!r.ok()) {
            throw new OpenSearchException("cannot switch alias " + alias + ": " + r.body());
        }
    }

    private static void validateLive(OpenSearchClient client, String index) {
        OpenSearchClient.Response mapping = client.send("GET", "/" + index + "/_mapping", null);
        if (!mapping.ok()) {
            throw new OpenSearchException(
                    "cannot read mapping of " + index + ": " + mapping.body());
        }
        JsonNode m = mapping.body().path(index).path("mappings");
        MemoryIndex.validate(m);
    }
}
