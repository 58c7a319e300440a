package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds every search against the memory index. It cannot be created without a {@link Scope}, and
 * every query it produces filters on tenant, user, project, environment and (unless history is
 * asked for) status=active. This class is the isolation boundary between users.
 */
public final class MemoryQuery {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Scope scope;
    private final List<String> types = new ArrayList<>();
    private final List<String> tiers = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();
    private final List<String> excludedTags = new ArrayList<>();
    private String sessionId;
    private String embeddingVersion;
    private Instant from;
    private Instant to;
    private boolean includeHistory;
    private boolean everyProject;

    private MemoryQuery(Scope scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    public static MemoryQuery forScope(Scope scope) {
        return new MemoryQuery(scope);
    }

    public MemoryQuery types(List<String> values) {
        types.addAll(values);
        return this;
    }

    public MemoryQuery tiers(List<String> values) {
        tiers.addAll(values);
        return this;
    }

    /** Memories carrying every one of these tags. */
    public MemoryQuery tags(List<String> values) {
        tags.addAll(values);
        return this;
    }

    /** No memory carrying any of these tags. */
    public MemoryQuery excludeTags(List<String> values) {
        excludedTags.addAll(values);
        return this;
    }

    public MemoryQuery session(String value) {
        this.sessionId = value;
        return this;
    }

    public MemoryQuery embeddingVersion(String value) {
        this.embeddingVersion = value;
        return this;
    }

    /** Memories whose {@code valid_from} falls in [from, to); either bound may be null. */
    public MemoryQuery validBetween(Instant fromInclusive, Instant toExclusive) {
        this.from = fromInclusive;
        this.to = toExclusive;
        return this;
    }

    public MemoryQuery includeHistory(boolean value) {
        this.includeHistory = value;
        return this;
    }

    /**
     * Drops the project filter: the user's documents in every project of the scope's tenant and
     * environment. Only for forgetting a user in every project (an admin's forget).
     */
    public MemoryQuery inEveryProject() {
        this.everyProject = true;
        return this;
    }

    public Scope scope() {
        return scope;
    }

    /** The routing parameter every request for this scope must send. */
    public String routing() {
        return scope.routing();
    }

    /** The bool filter clauses: scope first, then the caller's filters. */
    public ArrayNode filterClauses() {
        ArrayNode filters = JSON.createArrayNode();
        term(filters, "tenant_id", scope.tenantId());
        term(filters, "user_id", scope.userId());
        if (!everyProject) {
            term(filters, "project_id", scope.projectId());
        }
        term(filters, "environment", scope.environment());
        if (!includeHistory) {
            term(filters, "status", "active");
        }
        terms(filters, "type", types);
        terms(filters, "tier", tiers);
        for (String tag : tags) {
            term(filters, "tags", tag);
        }
        if (!excludedTags.isEmpty()) {
            ArrayNode none =
                    filters.addObject()
                            .putObject("bool")
                            .putObject("must_not")
                            .putObject("terms")
                            .putArray("tags");
            excludedTags.forEach(none::add);
        }
        if (sessionId != null) {
            term(filters, "session_id", sessionId);
        }
        if (embeddingVersion != null) {
            term(filters, "embedding_version", embeddingVersion);
        }
        if (from != null || to != null) {
            ObjectNode range = filters.addObject().putObject("range").putObject("valid_from");
            if (from != null) {
                range.put("gte", from.toString());
            }
            if (to != null) {
                range.put("lt", to.toString());
            }
        }
        return filters;
    }

    /**
     * Candidate list size of the HNSW search. A user's memories are a small slice of a shard, and
     * when the filter is not selective enough for Lucene to search exactly, a wide candidate list
     * keeps the approximate search exact in practice.
     */
    public static final int EF_SEARCH = 256;

    /** A filtered k-NN search: the {@code k} nearest memories of this scope. */
    public ObjectNode knn(float[] vector, int k) {
        checkDimension(vector);
        ObjectNode body = JSON.createObjectNode();
        body.put("size", k);
        body.putArray("_source").add("id");
        ObjectNode knn =
                body.putObject("query").putObject("knn").putObject(MemoryIndex.VECTOR_FIELD);
        knn.putRawValue("vector", vectorJson(vector));
        knn.put("k", k);
        knn.putObject("method_parameters").put("ef_search", Math.max(EF_SEARCH, k));
        knn.putObject("filter").putObject("bool").set("filter", filterClauses());
        return body;
    }

    /** A BM25 full-text search over content within this scope. */
    public ObjectNode bm25(String text, int size) {
        ObjectNode body = JSON.createObjectNode();
        body.put("size", size);
        body.putArray("_source").add("id");
        ObjectNode bool = body.putObject("query").putObject("bool");
        bool.putArray("must")
                .addObject()
                .putObject("match")
                .putObject("content")
                .put("query", text);
        bool.set("filter", filterClauses());
        return body;
    }

    /**
     * A vector as a JSON array with six decimals, written by hand: {@code Float.toString} was the
     * largest single cost of building a recall request. Query vectors are unit length, so a
     * rounding of at most 5e-7 per component moves no score that matters.
     */
    static RawValue vectorJson(float[] vector) {
        StringBuilder out = new StringBuilder(vector.length * 10 + 2).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            long scaled = Math.round(vector[i] * 1_000_000d);
            if (scaled < 0) {
                out.append('-');
                scaled = -scaled;
            }
            out.append(scaled / 1_000_000).append('.');
            // Six digits into the builder: no String per component.
            int fraction = (int) (scaled % 1_000_000);
            for (int d = 100_000; d > 0; d /= 10) {
                out.append((char) ('0' + fraction / d % 10));
            }
        }
        return new RawValue(out.append(']').toString());
    }

    /**
     * The {@code filter_path} of an {@code _msearch} of {@link #idsOnly} searches: per search its
     * status, error and hits' scores and ids. The status keeps every answer in its place, even one
     * without hits.
     */
    public static final String MSEARCH_IDS_AND_SCORES =
            "responses.status,responses.error,responses.hits.hits._score,responses.hits.hits.fields";

    /**
     * Makes {@code search} answer with ids and scores only. Even {@code _id} is a stored field, and
     * reading it decompresses the block that holds the whole stored document, vector included; the
     * {@code id} keyword's doc values give the same id without that. Read it with {@link
     * #hitId(JsonNode)}.
     */
    public static ObjectNode idsOnly(ObjectNode search) {
        search.put("_source", false);
        search.put("stored_fields", "_none_");
        search.putArray("docvalue_fields").add("id");
        return search;
    }

    /** The memory id of a hit, from an {@link #idsOnly} search or any other. */
    public static String hitId(JsonNode hit) {
        JsonNode fromDocValues = hit.path("fields").path("id").path(0);
        return fromDocValues.isMissingNode() ? hit.path("_id").asText() : fromDocValues.asText();
    }

    private static void checkDimension(float[] vector) {
        if (vector.length != MemoryIndex.DIMENSION) {
            throw new IllegalArgumentException(
                    "query vector has "
                            + vector.length
                            + " dimensions, expected "
                            + MemoryIndex.DIMENSION);
        }
    }

    /** The memories with these ids, if they are in this scope. */
    public ObjectNode ids(List<String> ids) {
        ObjectNode body = JSON.createObjectNode();
        body.put("size", ids.size());
        ArrayNode filters = filterClauses();
        ArrayNode values = filters.addObject().putObject("ids").putArray("values");
        ids.forEach(values::add);
        body.putObject("query").putObject("bool").set("filter", filters);
        return body;
    }

    /** All memories of this scope (for delete-by-query and counts). */
    public ObjectNode all() {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("query").putObject("bool").set("filter", filterClauses());
        return body;
    }

    private static void term(ArrayNode filters, String field, String value) {
        filters.addObject().putObject("term").put(field, value);
    }

    private static void terms(ArrayNode filters, String field, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode array = filters.addObject().putObject("terms").putArray(field);
            values.forEach(array::add);
        }
    }
}
