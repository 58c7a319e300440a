package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The definition of the memory index: settings, mapping and the checks a mapping must pass.
 *
 * <p>Vectors are always mapped with the Lucene HNSW engine: the FAISS and NMSLIB engines need
 * native libraries that an OpenSearch started from Maven artifacts does not have, and a mapping
 * using them is accepted but breaks the shard at its first flush. {@link #validate} rejects such a
 * mapping before it is used.
 */
public final class MemoryIndex {

    public static final String VECTOR_FIELD = "vec";
    public static final int DIMENSION = 384;
    public static final String ENGINE = "lucene";
    public static final String SPACE = "cosinesimil";

    private static final ObjectMapper JSON = new ObjectMapper();

    private MemoryIndex() {}

    /** The body of a create-index request: settings plus mapping. */
    public static ObjectNode createBody(int shards, int replicas) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode index = body.putObject("settings").putObject("index");
        index.put("number_of_shards", shards);
        index.put("number_of_replicas", replicas);
        index.put("knn", true);
        index.put("refresh_interval", "1s");
        body.set("mappings", mapping());
        return body;
    }

    public static ObjectNode mapping() {
        ObjectNode mapping = JSON.createObjectNode();
        mapping.put("dynamic", "strict");
        mapping.putObject("_routing").put("required", true);
        ObjectNode p = mapping.putObject("properties");
        for (String keyword :
                new String[] {
                    "id",
                    "tenant_id",
                    "project_id",
                    "environment",
                    "user_id",
                    "session_id",
                    "type",
                    "tier",
                    "status",
                    "tags",
                    "embedding_version"
                }) {
            p.putObject(keyword).put("type", "keyword");
        }
        p.putObject("valid_from").put("type", "date");
        p.putObject("valid_to").put("type", "date");
        p.putObject("created_at").put("type", "date");
        p.putObject("importance").put("type", "float");
        p.putObject("version").put("type", "integer");
        p.putObject("content").put("type", "text").put("analyzer", "english");
        ObjectNode vec = p.putObject(VECTOR_FIELD);
        vec.put("type", "knn_vector");
        vec.put("dimension", DIMENSION);
        ObjectNode method = vec.putObject("method");
        method.put("name", "hnsw");
        method.put("engine", ENGINE);
        method.put("space_type", SPACE);
        ObjectNode params = method.putObject("parameters");
        params.put("m", 16);
        params.put("ef_construction", 128);
        return mapping;
    }

    /**
     * Checks a mapping (as returned by {@code GET <index>/_mapping} for one index, or as built
     * here) and throws naming the first problem.
     */
    public static void validate(JsonNode mapping) {
        JsonNode vec = mapping.path("properties").path(VECTOR_FIELD);
        if (vec.isMissingNode()) {
            throw new IllegalStateException(
                    "memory index mapping has no '" + VECTOR_FIELD + "' field");
        }
        if (!"knn_vector".equals(vec.path("type").asText())) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must be knn_vector, is "
                            + vec.path("type").asText());
        }
        if (vec.path("dimension").asInt() != DIMENSION) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must have dimension "
                            + DIMENSION
                            + ", has "
                            + vec.path("dimension").asText());
        }
        String engine = vec.path("method").path("engine").asText("");
        if (!ENGINE.equals(engine)) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must use engine '"
                            + ENGINE
                            + "' (got '"
                            + (engine.isEmpty() ? "default (faiss)" : engine)
                            + "'): other engines need native libraries this node does not have");
        }
        String space = vec.path("method").path("space_type").asText("");
        if (!SPACE.equals(space)) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must use space_type '"
                            + SPACE
                            + "', got '"
                            + space
                            + "'");
        }
        for (String keyword :
                new String[] {"tenant_id", "user_id", "project_id", "environment", "status"}) {
            if (!"keyword".equals(mapping.path("properties").path(keyword).path("type").asText())) {
                throw new IllegalStateException(
                        "field '" + keyword + "' must be a keyword: scope filters depend on it");
            }
        }
    }
}
