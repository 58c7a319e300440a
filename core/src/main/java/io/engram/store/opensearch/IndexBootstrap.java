package io.engram.store.opensearch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.indices.update_aliases.Action;

/**
 * Makes sure the memory index alias exists and points at a concrete index with a valid mapping.
 * Idempotent: an existing alias is only validated.
 */
public final class IndexBootstrap {

    private IndexBootstrap() {}

    /** The outcome: the alias, the concrete index behind it, and whether it was created now. */
    public record Result(String alias, String index, boolean created) {}

    public static Result ensure(OpenSearchClient client, String alias, int shards, int replicas) {
        Set<String> existing = indicesOf(client, alias);
        if (!existing.isEmpty()) {
            if (existing.size() > 1) {
                throw new IllegalStateException(
                        "alias " + alias + " points at more than one index");
            }
            String index = existing.iterator().next();
            validateLive(client, index);
            return new Result(alias, index, false);
        }
        String index = alias + "-000001";
        try {
            client.indices().create(MemoryIndex.createRequest(index, shards, replicas, alias));
        } catch (org.opensearch.client.opensearch._types.OpenSearchException e) {
            if ("resource_already_exists_exception".equals(e.error().type())) {
                return ensure(client, alias, shards, replicas);
            }
            throw OpenSearchException.of("creating index " + index, e);
        } catch (java.io.IOException e) {
            throw OpenSearchException.of("creating index " + index, e);
        }
        validateLive(client, index);
        return new Result(alias, index, true);
    }

    /** The concrete indices {@code alias} points at; empty when there is no such alias. */
    public static Set<String> indicesOf(OpenSearchClient client, String alias) {
        String what = "reading alias " + alias;
        boolean exists =
                OpenSearchException.call(
                                what, () -> client.indices().existsAlias(e -> e.name(alias)))
                        .value();
        if (!exists) {
            return Set.of();
        }
        return OpenSearchException.call(what, () -> client.indices().getAlias(g -> g.name(alias)))
                .result()
                .keySet();
    }

    /** Creates a new concrete index for {@code alias} without pointing the alias at it. */
    public static String createIndex(
            OpenSearchClient client, String index, int shards, int replicas) {
        OpenSearchException.call(
                "creating index " + index,
                () ->
                        client.indices()
                                .create(MemoryIndex.createRequest(index, shards, replicas, null)));
        return index;
    }

    /** Atomically points {@code alias} at {@code index} only. */
    public static void switchAlias(OpenSearchClient client, String alias, String index) {
        List<Action> actions = new ArrayList<>();
        for (String old : indicesOf(client, alias)) {
            actions.add(Action.of(a -> a.remove(r -> r.index(old).alias(alias))));
        }
        actions.add(Action.of(a -> a.add(r -> r.index(index).alias(alias).isWriteIndex(true))));
        OpenSearchException.call(
                "switching alias " + alias,
                () -> client.indices().updateAliases(u -> u.actions(actions)));
    }

    private static void validateLive(OpenSearchClient client, String index) {
        var mapping =
                OpenSearchException.call(
                        "reading the mapping of " + index,
                        () -> client.indices().getMapping(g -> g.index(index)));
        MemoryIndex.validate(mapping.result().get(index).mappings());
    }
}
