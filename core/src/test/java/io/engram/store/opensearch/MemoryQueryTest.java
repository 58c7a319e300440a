package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.memory.Scope;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryQueryTest {

    private static final Scope ALICE = new Scope("acme", "default", "prod", "alice");

    @Test
    void queryVectorsAreWrittenToWithinSixDecimals() throws Exception {
        float[] v = new float[MemoryIndex.DIMENSION];
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (random.nextGaussian() * 0.1);
        }
        v[0] = -0.0000004f;
        v[1] = 1f;
        v[2] = -0.9999996f;
        v[3] = 0.0302f;
        JsonNode written =
                TypedJson.of(MemoryQuery.forScope(ALICE).knn(v, 5))
                        .path("knn")
                        .path("vec")
                        .path("vector");
        assertThat(written.size()).isEqualTo(v.length);
        for (int i = 0; i < v.length; i++) {
            assertThat(written.get(i).asDouble())
                    .as("component %d", i)
                    .isCloseTo(v[i], within(5.1e-7));
        }
    }

    @Test
    void storedVectorsAreWrittenWithSixDecimals() {
        assertThat(
                        MemoryDocuments.vectorJson(
                                        new float[] {0.0302f, -0.0000004f, -0.9999996f, 1f})
                                .rawValue())
                .isEqualTo("[0.030200,0.000000,-1.000000,1.000000]");
    }

    @Test
    void everyQueryFiltersOnTheWholeScopeAndActiveStatus() {
        MemoryQuery query = MemoryQuery.forScope(ALICE);
        for (JsonNode filters :
                List.of(
                        TypedJson.of(query.knn(new float[MemoryIndex.DIMENSION], 5))
                                .path("knn")
                                .path("vec")
                                .path("filter")
                                .path("bool")
                                .path("filter"),
                        TypedJson.of(query.bm25("budget")).path("bool").path("filter"),
                        TypedJson.of(query.all()).path("bool").path("filter"))) {
            assertThat(filters.toString())
                    .contains(term("tenant_id", "acme"))
                    .contains(term("user_id", "alice"))
                    .contains(term("project_id", "default"))
                    .contains(term("environment", "prod"))
                    .contains(term("status", "active"));
        }
        assertThat(query.routing()).isEqualTo("acme/alice");
    }

    @Test
    void callerFiltersAddToTheScopeAndNeverReplaceIt() {
        JsonNode filters =
                TypedJson.of(
                        MemoryQuery.forScope(ALICE)
                                .types(List.of("semantic"))
                                .tags(List.of("travel", "budget"))
                                .session("s1")
                                .validBetween(Instant.parse("2026-01-01T00:00:00Z"), null)
                                .includeHistory(true)
                                .all());
        String text = filters.toString();
        assertThat(text)
                .contains(term("user_id", "alice"))
                .contains("{\"terms\":{\"type\":[\"semantic\"]}}")
                .contains(term("tags", "travel"))
                .contains(term("tags", "budget"))
                .contains(term("session_id", "s1"))
                .contains("\"gte\":\"2026-01-01T00:00:00Z\"")
                .doesNotContain("\"status\"");
    }

    /** A term filter as the client writes it. */
    private static String term(String field, String value) {
        return "{\"term\":{\"" + field + "\":{\"value\":\"" + value + "\"}}}";
    }

    @Test
    void aScopeCannotBeBuiltWithoutTenantOrUser() {
        assertThatThrownBy(() -> new Scope(null, "p", "e", "u")).hasMessageContaining("tenant_id");
        assertThatThrownBy(() -> new Scope("t", "p", "e", "")).hasMessageContaining("user_id");
        assertThatThrownBy(() -> new Scope("t", "p", "e", "a\"b")).hasMessageContaining("user_id");
        assertThatThrownBy(() -> MemoryQuery.forScope(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void rejectsQueryVectorsOfTheWrongSize() {
        assertThatThrownBy(() -> MemoryQuery.forScope(ALICE).knn(new float[10], 5))
                .hasMessageContaining("10 dimensions");
    }
}
