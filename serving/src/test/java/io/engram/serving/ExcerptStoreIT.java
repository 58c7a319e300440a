package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.extraction.Excerpts;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryIndex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.query_dsl.Query;

/**
 * A memory tagged as an excerpt, stored or edited through the API, is embedded as the write plane
 * embeds excerpts: by its own (last) turn with a model whose excerpt vectors pay (e5-small-v2), not
 * at all with MiniLM.
 */
class ExcerptStoreIT {

    private static final String EXCERPT =
            "Tim: What do you do on weekends?\nAnn: Every Saturday I take my sailboat out on the lake.";
    private static final String EDITED =
            "Tim: What do you do on weekends?\nAnn: On Sundays I bake bread for the neighbours.";

    @Test
    void withE5AnExcerptIsEmbeddedByItsOwnTurnAndFoundByIt() throws Exception {
        ModelSpec e5 = ModelSpec.E5_SMALL_V2_INT8;
        try (ServingFixture f =
                        new ServingFixture(
                                "excerpt_e5_it",
                                SharedServices.openSearch().url(),
                                Map.of("ENGRAM_EMBEDDING_VERSION", e5.version()));
                OnnxEmbedder model = OnnxEmbedder.load(e5, TestEmbedders.MODEL_DIR, 1)) {
            String key = f.key("acme", "default", "prod", "read", "write");
            String id = store(f, key);
            float[] vector = vector(f, id);
            assertThat(vector).as("an excerpt with e5 has a vector").isNotNull();
            assertThat(Embedder.cosine(vector, model.embed(Excerpts.vectorText(EXCERPT))))
                    .isGreaterThan(0.999f);

            // Found by its turn's meaning alone: excerpts only, k-NN only.
            ServingFixture.Reply found =
                    f.post(
                            "/v1/memories/search",
                            key,
                            new JsonObject()
                                    .put("user_id", "ann")
                                    .put("query", "Does Ann have a boat?")
                                    .put("tags", new JsonArray().add(Excerpts.TAG))
                                    .put("retrieval", "dense"));
            assertThat(found.status()).as(found.raw()).isEqualTo(200);
            assertThat(found.json().getJsonArray("memories").getJsonObject(0).getString("id"))
                    .isEqualTo(id);

            // An edit is embedded by the same rule.
            edit(f, key, id);
            assertThat(Embedder.cosine(vector(f, id), model.embed(Excerpts.vectorText(EDITED))))
                    .isGreaterThan(0.999f);
        }
    }

    @Test
    void withMiniLmAnExcerptHasNoVectorEvenWhenStoredOrEditedThroughTheApi() throws Exception {
        try (ServingFixture f =
                new ServingFixture("excerpt_minilm_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            String id = store(f, key);
            assertThat(vector(f, id)).as("found by its words alone").isNull();
            edit(f, key, id);
            assertThat(vector(f, id)).isNull();
        }
    }

    private static String store(ServingFixture f, String key) throws Exception {
        JsonObject stored =
                f.store(
                        key,
                        new JsonObject()
                                .put("user_id", "ann")
                                .put("type", "episodic")
                                .put("content", EXCERPT)
                                .put("tags", new JsonArray().add(Excerpts.TAG)));
        f.refresh();
        return stored.getString("id");
    }

    private static void edit(ServingFixture f, String key, String id) throws Exception {
        ServingFixture.Reply patched =
                f.call(
                        "PATCH",
                        "/v1/memories/" + id + "?user_id=ann",
                        key,
                        new JsonObject().put("content", EDITED).encode());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
    }

    /** The memory's vector in the index, or null when it has none. */
    private static float[] vector(ServingFixture f, String id) {
        f.refresh();
        List<JsonNode> sources =
                IndexInspection.sources(
                        f.openSearch,
                        f.config.memoryIndexAlias(),
                        Query.of(q -> q.ids(i -> i.values(id))),
                        1);
        assertThat(sources).hasSize(1);
        JsonNode v = sources.get(0).get(MemoryIndex.VECTOR_FIELD);
        if (v == null || v.isNull()) {
            return null;
        }
        float[] out = new float[v.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) v.get(i).asDouble();
        }
        return out;
    }
}
