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

class MemoryIndexIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALIAS = "engram-memories-it";
    private static final List<String> USERS = List.of("alice", "bob", "carol");
    private static final int PER_USER = 150;

    private static OpenSearchClient client;
    private static final List<Doc> DOCS = new ArrayList<>();

    record Doc(String id, String user, String status, float[] vec) {}

    @BeforeAll
    static void createAndFill() {
        client = new OpenSearchClient(SharedServices.openSearch().url(), Duration.ofSeconds(30));
        IndexBootstrap.Result result = IndexBootstrap.ensure(client, ALIAS, 2, 0);
        assertThat(result.created()).isTrue();
        assertThat(result.index()).isEqualTo(ALIAS + "-000001");

        Random random = new Random(42);
        List<JsonNode> bulk = new ArrayList<>();
        for (String user : USERS) {
            for (int i = 0; i < PER_USER; i++) {
                String status = i % 10 == 0 ? "superseded" : "active";
                Doc doc = new Doc(user + "-" + i, user, status, randomUnitVector(random));
                DOCS.add(doc);
                ObjectNode action = JSON.createObjectNode();
                action.putObject("index")
                        .put("_index", ALIAS)
                        .put("_id", doc.id())
                        .put("routing", "acme/" + user);
                bulk.add(action);
                bulk.add(source(doc));
            }
        }
        OpenSearchClient.Response response = client.sendNdjson("/_bulk?refresh=true", bulk);
        assertThat(response.ok()).isTrue();
        assertThat(response.body().path("errors").asBoolean())
                .as(response.body().toString())
                .isFalse();
    }

    @Test
    void bootstrapIsIdempotentAndValidatesTheLiveMapping() {
        IndexBootstrap.Result again = IndexBootstrap.ensure(client, ALIAS, 2, 0);
        assertThat(again.created()).isFalse();
        assertThat(again.index()).isEqualTo(ALIAS + "-000001");
    }

    @Test
    void filteredKnnForOneUserMatchesBruteForce() {
        Random random = new Random(7);
        for (int q = 0; q < 5; q++) {
            float[] query = randomUnitVector(random);
            for (String user : USERS) {
                MemoryQuery memoryQuery =
                        MemoryQuery.forScope(new Scope("acme", "default", "dev", user));
                OpenSearchClient.Response response =
                        client.send(
                                "POST",
                                "/" + ALIAS + "/_search?routing=" + memoryQuery.routing(),
                                memoryQuery.knn(query, 10));
                assertThat(response.ok()).as(response.body().toString()).isTrue();
                List<String> got = new ArrayList<>();
                for (JsonNode hit : response.body().path("hits").path("hits")) {
                    got.add(hit.path("_id").asText());
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
    void bm25SearchNeverReturnsAnotherUsersMemories() {
        MemoryQuery bob = MemoryQuery.forScope(new Scope("acme", "default", "dev", "bob"));
        List<String> got = bm25Ids(bob, 50);
        assertThat(got).isNotEmpty();
        for (String id : got) {
            assertThat(id).startsWith("bob-");
        }
    }

    @Test
    void idsOnlyMsearchKeepsOneAnswerPerSearchAndScoresKnnHitsByTheirExactCosine() {
        MemoryQuery bob = MemoryQuery.forScope(new Scope("acme", "default", "dev", "bob"));
        float[] query = randomUnitVector(new Random(11));
        com.fasterxml.jackson.databind.node.ObjectNode header =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .createObjectNode()
                        .put("index", ALIAS)
                        .put("routing", bob.routing());
        OpenSearchClient.Response response =
                client.sendNdjson(
                        "/_msearch?filter_path=" + MemoryQuery.MSEARCH_IDS_AND_SCORES,
                        List.of(
                                header,
                                MemoryQuery.idsOnly(bob.bm25("zzzunmatched", 7)),
                                header,
                                MemoryQuery.idsOnly(bob.knn(query, 7)),
                                header,
                                MemoryQuery.idsOnly(bob.bm25("memory", 7))));
        assertThat(response.ok()).as(response.body().toString()).isTrue();
        JsonNode answers = response.body().path("responses");
        // A search without hits keeps its place: answers are matched to searches by position.
        assertThat(answers.size()).isEqualTo(3);
        assertThat(answers.path(0).path("hits").path("hits").size()).isZero();
        Map<String, Double> scores = new java.util.HashMap<>();
        for (JsonNode hit : answers.path(1).path("hits").path("hits")) {
            assertThat(hit.has("_source")).isFalse();
            assertThat(hit.has("_index")).isFalse();
            scores.put(MemoryQuery.hitId(hit), hit.path("_score").asDouble());
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
        answers.path(2).path("hits").path("hits").forEach(h -> bm25.add(MemoryQuery.hitId(h)));
        assertThat(bm25).containsExactlyElementsOf(bm25Ids(bob, 7));
    }

    /** The ids BM25 finds for "memory" under this query's scope and filters. */
    private static List<String> bm25Ids(MemoryQuery query, int size) {
        OpenSearchClient.Response response =
                client.send(
                        "POST",
                        "/" + ALIAS + "/_search?routing=" + query.routing(),
                        query.bm25("memory", size));
        assertThat(response.ok()).isTrue();
        List<String> ids = new ArrayList<>();
        response.body().path("hits").path("hits").forEach(h -> ids.add(h.path("_id").asText()));
        return ids;
    }

    @Test
    void excludedTagsLeaveOutEveryMemoryCarryingThem() {
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
    void anIndexWhoseVectorsUseAnotherEngineIsRefused() {
        ObjectNode body = MemoryIndex.createBody(1, 0);
        ((ObjectNode) body.path("mappings").path("properties").path("vec").path("method"))
                .put("engine", "faiss");
        assertThat(client.send("PUT", "/engram-memories-faiss-000001", body).ok()).isTrue();
        ObjectNode alias = JSON.createObjectNode();
        ArrayNode actions = alias.putArray("actions");
        actions.addObject()
                .putObject("add")
                .put("index", "engram-memories-faiss-000001")
                .put("alias", "engram-memories-faiss");
        assertThat(client.send("POST", "/_aliases", alias).ok()).isTrue();
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
