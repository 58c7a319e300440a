package io.engram.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.engram.memory.Scope;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * e5-small-v2: queries and passages are embedded with their own prefixes, and its cosines are read
 * on the scale where unrelated texts are near 0, as MiniLM's are.
 */
class E5EmbedderTest {

    private static final ModelSpec E5 = ModelSpec.E5_SMALL_V2_INT8;
    private static OnnxEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = OnnxEmbedder.load(E5, TestEmbedders.MODEL_DIR, 1);
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static double similarity(float[] a, float[] b) {
        return E5.similarity(Embedder.cosine(a, b));
    }

    @Test
    void aQueryIsEmbeddedApartFromTheSamePassage() {
        String text = "Where does Ann live?";
        float[] asQuery = embedder.embedQueries(null, List.of(text)).get(0);
        float[] asPassage = embedder.embed(text);
        assertThat(Embedder.cosine(asQuery, asPassage)).isLessThan(0.99f);
        assertThat(asQuery).hasSize(384);
    }

    @Test
    void aQueryFindsTheAnswerAboveUnrelatedPassages() {
        float[] q = embedder.embedQueries(null, List.of("Where does Ann live?")).get(0);
        double answer = similarity(q, embedder.embed("Ann lives in Denver."));
        double unrelated = similarity(q, embedder.embed("Bob plays the clarinet."));
        assertThat(answer).isGreaterThan(unrelated + 0.3);
    }

    @Test
    void similaritiesMeanWhatMiniLmsMean() {
        // Restated, related, unrelated: on the scale the deduplication thresholds are set in.
        double restated =
                similarity(
                        embedder.embed("Ann works at Google."),
                        embedder.embed("Ann is employed by Google."));
        double unrelated =
                similarity(
                        embedder.embed("Ann has two cats."),
                        embedder.embed("The budget for the trip is $5,000."));
        assertThat(restated).isGreaterThan(0.9);
        assertThat(unrelated).isBetween(-0.3, 0.2);
    }

    @Test
    void theScaleMapsTheFloorToZeroAndBack() {
        assertThat(E5.similarity(0.7)).isCloseTo(0, within(1e-9));
        assertThat(E5.similarity(1.0)).isCloseTo(1, within(1e-9));
        assertThat(E5.cosineAt(E5.similarity(0.85))).isCloseTo(0.85, within(1e-9));
        assertThat(E5.similarity(-1)).isEqualTo(-1);
        ModelSpec miniLm = ModelSpec.MINILM_L6_V2_INT8;
        assertThat(miniLm.similarity(0.42)).isEqualTo(0.42);
        assertThat(ModelSpec.scaleOf("test").similarity(0.42)).isEqualTo(0.42);
        assertThat(ModelSpec.scaleOf(E5.version())).isEqualTo(E5);
    }

    @Test
    void theCacheKeepsQueriesApartFromPassages() {
        CachingEmbedder cache = new CachingEmbedder(embedder, 10);
        Scope ann = new Scope("acme", "default", "prod", "ann");
        float[] passage = cache.embed(ann, List.of("Ann lives in Denver.")).get(0);
        float[] query = cache.embedQueries(ann, List.of("Ann lives in Denver.")).get(0);
        assertThat(query).isNotEqualTo(passage);
        assertThat(cache.embedQueries(ann, List.of("Ann lives in Denver.")).get(0)).isSameAs(query);
        assertThat(ModelSpec.scaleOf(cache.version()).similarity(0.7)).isCloseTo(0, within(1e-9));
    }
}
