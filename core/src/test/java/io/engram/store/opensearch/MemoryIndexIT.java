package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Scope;
import io.engram.services.SharedServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.mapping.TypeMapping;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.msearch.MultiSearchResponseItem;
import org.opensearch.client.opensearch.core.msearch.MultisearchHeader;
import org.opensearch.client.opensearch.core.msearch.RequestItem;
import org.opensearch.client.opensearch.core.search.Hit;

class MemoryIndexIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALIAS = "engram-memories-it";
    private static final List<String> USERS = List.of("alice", "bob", "carol");
    private static final int PER_USER = 150;

    private static OpenSearchClient client;
    private static final List<Doc> DOCS = new ArrayList<>();

    record Doc(String id, String user, String status, float[] vec) {}

    @BeforeAll
    static void createAndFill() throws Exception {
        client =
                OpenSearchClients.create(SharedServices.openSearch().url(), Duration.ofSeconds(30));
        IndexBootstrap.Result result = IndexBootstrap.ensure(client, ALIAS, 2, 0);
        assertThat(result.created()).isTrue();
        assertThat(result.index()).isEqualTo(ALIAS + "-000001");

        Random random = new Random(42);
        List<BulkOperation> bulk = new ArrayList<>();
        for (String user : USERS) {
            for (int i = 0; i < PER_USER; i++) {
                String status = i % 10 == 0 ? "superseded" : "active";
                Doc doc = new Doc(user + "-" + i, user, status, randomUnitVector(random));
                DOCS.add(doc);
                ObjectNode source = source(doc);
                bulk.add(
                        BulkOperation.of(
                                b ->
                                        b.index(
                                                op ->
                                                        op.index(ALIAS)
                                                                .id(doc.id())
                                                                .routing("acme/" + user)
                                                                .document(source))));
            }
        }
        BulkResponse response = client.bulk(b -> b.operations(bulk).refresh(Refresh.True));
        assertThat(response.errors()).as(response.toString()).isFalse();
    }

    @Test
    void bootstrapIsIdempotentAndValidatesTheLiveMapping() {
        IndexBootstrap.Result again = IndexBootstrap.ensure(client, ALIAS, 2, 0);
        assertThat(again.created()).isFalse();
        assertThat(again.index()).isEqualTo(ALIAS + "-000001");
    }

    @Test
    void filteredKnnForOneUserMatchesBruteForce() throws Exception {
        Random random = new Random(7);
        for (int q = 0; q < 5; q++) {
            float[] query = randomUnitVector(random);
            for (String user : USERS) {
                MemoryQuery memoryQuery =
                        MemoryQuery.forScope(new Scope("acme", "default", "dev", user));
                SearchResponse<JsonNode> response =
                        client.search(
                                s ->
                                        s.index(ALIAS)
                                                .routing(memoryQuery.routing())
                                                .query(memoryQuery.knn(query, 10))
                                                .size(10),
                                JsonNode.class);
                List<String> got = new ArrayList<>();
                for (Hit<JsonNode> hit : response.hits().hits()) {
                    got.add(hit.id());
                }
                List<String> expected =
                        DOCS.stream()
                                .filter(d -> d.user().equals(user) && d.status().equals("active"))
                                .sorted(
                                        Comparator.comparingDouble(
                                                (Doc d) -> -cosine(query, d.vec())))
                                .limit(10)
                                .map(Doc::id)
                                .toList();
                assertThat(got).as("query %d for %s", q, user).containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void bm25SearchNeverReturnsAnotherUsersMemories() throws Exception {
        MemoryQuery bob = MemoryQuery.forScope(new Scope("acme", "default", "dev", "bob"));
        List<String> got = bm25Ids(bob, 50);
        assertThat(got).isNotEmpty();
        for (String id : got) {
            assertThat(id).startsWith("bob-");
        }
    }

    @Test
    void idsOnlyMsearchKeepsOneAnswerPerSearchAndScoresKnnHitsByTheirExactCosine()
            throws Exception {
        MemoryQuery bob = MemoryQuery.forScope(new Scope("acme", "default", "dev", "bob"));
        float[] query = randomUnitVector(new Random(11));
        MultisearchHeader header = MultisearchHeader.of(h -> h.index(ALIAS).routing(bob.routing()));
        List<RequestItem> searches = new ArrayList<>();
        for (var body :
                List.of(
                        MemoryQuery.idsOnly(bob.bm25("zzzunmatched"), 7),
                        MemoryQuery.idsOnly(bob.knn(query, 7), 7),
                        MemoryQuery.idsOnly(bob.bm25("memory"), 7))) {
            searches.add(RequestItem.of(r -> r.header(header).body(body)));
        }
        List<MultiSearchResponseItem<JsonNode>> answers =
                client.withTransportOptions(MemoryQuery.IDS_AND_SCORES_ONLY)
                        .msearch(m -> m.searches(searches), JsonNode.class)
                        .responses();
        // A search without hits keeps its place: answers are matched to searches by position.
        assertThat(answers.size()).isEqualTo(3);
        assertThat(answers).allMatch(MultiSearchResponseItem::isResult);
        assertThat(MemoryQuery.hits(answers.get(0).result())).isEmpty();
        Map<String, Double> scores = new java.util.HashMap<>();
        for (Hit<JsonNode> hit : MemoryQuery.hits(answers.get(1).result())) {
            assertThat(hit.source()).isNull();
            assertThat(hit.index()).isNull();
            scores.put(MemoryQuery.hitId(hit), hit.score());
        }
        assertThat(scores).hasSize(7);
        for (Doc d : DOCS) {
            if (scores.containsKey(d.id())) {
                assertThat(scores.get(d.id()))
                        .as(d.id())
                        .isCloseTo((1 + cosine(query, d.vec())) / 2, within(1e-4));
            }
        }
        List<String> bm25 = new ArrayList<>();
        MemoryQuery.hits(answers.get(2).result()).forEach(h -> bm25.add(MemoryQuery.hitId(h)));
        assertThat(bm25).containsExactlyElementsOf(bm25Ids(bob, 7));
    }

    /** The ids BM25 finds for "memory" under this query's scope and filters. */
    private static List<String> bm25Ids(MemoryQuery query, int size) throws Exception {
        SearchResponse<JsonNode> response =
                client.search(
                        s ->
                                s.index(ALIAS)
                                        .routing(query.routing())
                                        .query(query.bm25("memory"))
                                        .size(size),
                        JsonNode.class);
        List<String> ids = new ArrayList<>();
        response.hits().hits().forEach(h -> ids.add(h.id()));
        return ids;
    }

    @Test
    void excludedTagsLeaveOutEveryMemoryCarryingThem() throws Exception {
        MemoryQuery bob =
                MemoryQuery.forScope(new Scope("acme", "default", "dev", "bob"))
                        .excludeTags(List.of("excerpt"));
        List<String> got = bm25Ids(bob, 1000);
        List<String> expected =
                DOCS.stream()
                        .filter(d -> d.user().equals("bob") && d.status().equals("active"))
                        .filter(d -> !excerpt(d))
                        .map(Doc::id)
                        .toList();
        assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void anIndexWhoseVectorsUseAnotherEngineIsRefused() throws Exception {
        TypeMapping faiss =
                MemoryIndexTest.edit(m -> MemoryIndexTest.method(m).put("engine", "faiss"));
        assertThat(
                        client.indices()
                                .create(
                                        c ->
                                                c.index("engram-memories-faiss-000001")
                                                        .settings(st -> st.knn(true))
                                                        .mappings(faiss)
                                                        .aliases("engram-memories-faiss", a -> a))
                                .acknowledged())
                .isTrue();
        assertThatThrownBy(() -> IndexBootstrap.ensure(client, "engram-memories-faiss", 1, 0))
                .hasMessageContaining("must use engine 'lucene'");
    }

    /** One memory in three carries the tag "excerpt". */
    private static boolean excerpt(Doc doc) {
        return Integer.parseInt(doc.id().substring(doc.id().lastIndexOf('-') + 1)) % 3 == 0;
    }

    private static ObjectNode source(Doc doc) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", doc.id());
        o.put("tenant_id", "acme");
        o.put("project_id", "default");
        o.put("environment", "dev");
        o.put("user_id", doc.user());
        o.put("type", "semantic");
        o.put("tier", "hot");
        o.put("status", doc.status());
        ArrayNode tags = o.putArray("tags");
        if (excerpt(doc)) {
            tags.add("excerpt").add("travel");
        }
        o.put("embedding_version", "test");
        o.put("content", "memory " + doc.id() + " of " + doc.user());
        o.put("valid_from", "2026-03-15T10:00:00Z");
        o.put("importance", 0.5);
        o.put("version", 1);
        ArrayNode v = o.putArray("vec");
        for (float f : doc.vec()) {
            v.add(f);
        }
        return o;
    }

    private static float[] randomUnitVector(Random random) {
        float[] v = new float[MemoryIndex.DIMENSION];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
