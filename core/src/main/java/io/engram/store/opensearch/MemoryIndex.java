package io.engram.store.opensearch;

import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch._types.mapping.DynamicMapping;
import org.opensearch.client.opensearch._types.mapping.KnnVectorMethod;
import org.opensearch.client.opensearch._types.mapping.KnnVectorProperty;
import org.opensearch.client.opensearch._types.mapping.Property;
import org.opensearch.client.opensearch._types.mapping.TypeMapping;
import org.opensearch.client.opensearch.indices.CreateIndexRequest;

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

    private MemoryIndex() {}

    private static final String[] KEYWORDS = {
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
    };

    /**
     * The request that creates a concrete memory index; {@code writeAlias}, when not null, is
     * pointed at it as its write index in the same request.
     */
    public static CreateIndexRequest createRequest(
            String index, int shards, int replicas, String writeAlias) {
        return CreateIndexRequest.of(
                c -> {
                    c.index(index)
                            .settings(
                                    st ->
                                            st.numberOfShards(shards)
                                                    .numberOfReplicas(replicas)
                                                    .knn(true)
                                                    .refreshInterval(t -> t.time("1s")))
                            .mappings(mapping());
                    if (writeAlias != null) {
                        c.aliases(writeAlias, a -> a.isWriteIndex(true));
                    }
                    return c;
                });
    }

    public static TypeMapping mapping() {
        TypeMapping.Builder m =
                new TypeMapping.Builder()
                        .dynamic(DynamicMapping.Strict)
                        .routing(r -> r.required(true));
        for (String keyword : KEYWORDS) {
            m.properties(keyword, p -> p.keyword(k -> k));
        }
        m.properties("valid_from", p -> p.date(d -> d));
        m.properties("valid_to", p -> p.date(d -> d));
        m.properties("created_at", p -> p.date(d -> d));
        m.properties("importance", p -> p.float_(f -> f));
        m.properties("version", p -> p.integer(n -> n));
        m.properties("content", p -> p.text(t -> t.analyzer("english")));
        m.properties(
                VECTOR_FIELD,
                p ->
                        p.knnVector(
                                v ->
                                        v.dimension(DIMENSION)
                                                .method(
                                                        method ->
                                                                method.name("hnsw")
                                                                        .engine(ENGINE)
                                                                        .spaceType(SPACE)
                                                                        .parameters(
                                                                                "m",
                                                                                JsonData.of(16))
                                                                        .parameters(
                                                                                "ef_construction",
                                                                                JsonData.of(
                                                                                        128)))));
        return m.build();
    }

    /**
     * Checks a mapping (as returned by {@code GET <index>/_mapping} for one index, or as built
     * here) and throws naming the first problem.
     */
    public static void validate(TypeMapping mapping) {
        Property vec = mapping.properties().get(VECTOR_FIELD);
        if (vec == null) {
            throw new IllegalStateException(
                    "memory index mapping has no '" + VECTOR_FIELD + "' field");
        }
        if (!vec.isKnnVector()) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must be knn_vector, is "
                            + vec._kind().jsonValue());
        }
        KnnVectorProperty knn = vec.knnVector();
        if (knn.dimension() != DIMENSION) {
            throw new IllegalStateException(
                    "field '"
                            + VECTOR_FIELD
                            + "' must have dimension "
                            + DIMENSION
                            + ", has "
                            + knn.dimension());
        }
        KnnVectorMethod method = knn.method();
        String engine = method == null || method.engine() == null ? "" : method.engine();
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
        String space =
                method.spaceType() != null
                        ? method.spaceType()
                        : knn.spaceType() == null ? "" : knn.spaceType();
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
            Property p = mapping.properties().get(keyword);
            if (p == null || !p.isKeyword()) {
                throw new IllegalStateException(
                        "field '" + keyword + "' must be a keyword: scope filters depend on it");
            }
        }
    }
}
