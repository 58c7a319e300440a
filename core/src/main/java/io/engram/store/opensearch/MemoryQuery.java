package io.engram.store.opensearch;

import io.engram.memory.Scope;
import io.engram.store.opensearch.wire.OpenSearchWire;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.msearch.MultiSearchItem;
import org.opensearch.client.opensearch.core.msearch.MultisearchBody;
import org.opensearch.client.opensearch.core.search.Hit;
import org.opensearch.client.opensearch.core.search.SourceConfig;
import org.opensearch.client.transport.TransportOptions;

/**
 * Builds every search against the memory index. It cannot be created without a {@link Scope}, and
 * every query it produces filters on tenant, user, project, environment and (unless history is
 * asked for) status=active. This class is the isolation boundary between users.
 */
public final class MemoryQuery {

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

    /** The filter clauses: scope first, then the caller's filters. */
    public List<Query> filterClauses() {
        List<Query> filters = new ArrayList<>();
        filters.add(term("tenant_id", scope.tenantId()));
        filters.add(term("user_id", scope.userId()));
        if (!everyProject) {
            filters.add(term("project_id", scope.projectId()));
        }
        filters.add(term("environment", scope.environment()));
        if (!includeHistory) {
            filters.add(term("status", "active"));
        }
        if (!types.isEmpty()) {
            filters.add(terms("type", types));
        }
        if (!tiers.isEmpty()) {
            filters.add(terms("tier", tiers));
        }
        for (String tag : tags) {
            filters.add(term("tags", tag));
        }
        if (!excludedTags.isEmpty()) {
            Query none = terms("tags", excludedTags);
            filters.add(Query.of(q -> q.bool(b -> b.mustNot(none))));
        }
        if (sessionId != null) {
            filters.add(term("session_id", sessionId));
        }
        if (embeddingVersion != null) {
            filters.add(term("embedding_version", embeddingVersion));
        }
        if (from != null || to != null) {
            filters.add(
                    Query.of(
                            q ->
                                    q.range(
                                            r -> {
                                                r.field("valid_from");
                                                if (from != null) {
                                                    r.gte(JsonData.of(from.toString()));
                                                }
                                                if (to != null) {
                                                    r.lt(JsonData.of(to.toString()));
                                                }
                                                return r;
                                            })));
        }
        return filters;
    }

    /** All memories of this scope: a bool query of the filter clauses only. */
    public Query all() {
        List<Query> filters = filterClauses();
        return Query.of(q -> q.bool(b -> b.filter(filters)));
    }

    /**
     * Candidate list size of the HNSW search. A user's memories are a small slice of a shard, and
     * when the filter is not selective enough for Lucene to search exactly, a wide candidate list
     * keeps the approximate search exact in practice.
     */
    public static final int EF_SEARCH = 256;

    /** A filtered k-NN query: the {@code k} nearest memories of this scope. */
    public Query knn(float[] vector, int k) {
        checkDimension(vector);
        List<Float> components = new ArrayList<>(vector.length);
        for (float f : vector) {
            components.add(f);
        }
        Query filter = all();
        return Query.of(
                q ->
                        q.knn(
                                n ->
                                        n.field(MemoryIndex.VECTOR_FIELD)
                                                .vector(components)
                                                .k(k)
                                                .methodParameters(
                                                        "ef_search",
                                                        JsonData.of(Math.max(EF_SEARCH, k)))
                                                .filter(filter)));
    }

    /** A BM25 full-text query over content within this scope. */
    public Query bm25(String text) {
        List<Query> filters = filterClauses();
        return Query.of(
                q ->
                        q.bool(
                                b ->
                                        b.must(
                                                        m ->
                                                                m.match(
                                                                        t ->
                                                                                t.field("content")
                                                                                        .query(
                                                                                                FieldValue
                                                                                                        .of(
                                                                                                                text))))
                                                .filter(filters)));
    }

    /** The memories with these ids, if they are in this scope. */
    public Query ids(List<String> ids) {
        List<Query> filters = filterClauses();
        filters.add(Query.of(q -> q.ids(i -> i.values(ids))));
        return Query.of(q -> q.bool(b -> b.filter(filters)));
    }

    /**
     * One search of a multi-search that answers with ids and scores only. Even {@code _id} is a
     * stored field, and reading it decompresses the block that holds the whole stored document,
     * vector included; the {@code id} keyword's doc values give the same id without that. Read it
     * with {@link #hitId(Hit)}. {@code docValues}: more doc-value fields to return.
     */
    public static MultisearchBody idsOnly(Query query, int size, String... docValues) {
        return MultisearchBody.of(
                b -> {
                    b.query(query)
                            .size(size)
                            .source(SourceConfig.of(c -> c.fetch(false)))
                            .storedFields("_none_")
                            .docvalueFields(f -> f.field("id"));
                    for (String field : docValues) {
                        b.docvalueFields(f -> f.field(field));
                    }
                    return b;
                });
    }

    /**
     * The {@code filter_path} of a multi-search of {@link #idsOnly} searches: per search its time,
     * time-out flag, status, error and hits' scores and ids (the client reads the first two as
     * required). The time marks an answer as a result even without hits, and keeps every answer in
     * its place.
     */
    public static final String MSEARCH_IDS_AND_SCORES =
            "took,responses.took,responses.timed_out,responses.status,responses.error,"
                    + "responses.hits.hits._score,responses.hits.hits.fields";

    /** The options of a multi-search of {@link #idsOnly} searches: their answers trimmed. */
    public static final TransportOptions IDS_AND_SCORES_ONLY =
            TransportOptions.builder()
                    .setParameter(OpenSearchWire.FILTER_PATH, MSEARCH_IDS_AND_SCORES)
                    .build();

    /** The hits of one answer of a multi-search trimmed to ids and scores (none: empty). */
    public static <T> List<Hit<T>> hits(MultiSearchItem<T> answer) {
        return answer.hits() == null || answer.hits().hits() == null
                ? List.of()
                : answer.hits().hits();
    }

    /** The memory id of a hit, from an {@link #idsOnly} search or any other. */
    public static String hitId(Hit<?> hit) {
        JsonData fromDocValues = hit.fields().get("id");
        if (fromDocValues == null) {
            return hit.id();
        }
        return fromDocValues.toJson().asJsonArray().getString(0);
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

    private static Query term(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(FieldValue.of(value))));
    }

    private static Query terms(String field, List<String> values) {
        List<FieldValue> fieldValues = new ArrayList<>(values.size());
        values.forEach(v -> fieldValues.add(FieldValue.of(v)));
        return Query.of(q -> q.terms(t -> t.field(field).terms(f -> f.value(fieldValues))));
    }
}
