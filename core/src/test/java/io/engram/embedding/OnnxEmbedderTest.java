package io.engram.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Compares our tokenizer and embedder with the reference implementation of the same model. */
class OnnxEmbedderTest {

    private static final List<String> TEXTS =
            List.of(
                    "My budget for the Hawaii trip is $10,000",
                    "What's my budget for the trip?",
                    "Caroline went to the LGBTQ support group on 7 May 2023.",
                    "Mélanie's café serves crème brûlée — naïvely good!",
                    "user_id=42; path=/etc/hosts (see https://example.com/a?b=c)",
                    "東京 is the capital of Japan 🇯🇵 and I ❤️ ramen",
                    "Supercalifragilisticexpialidocious antidisestablishmentarianism",
                    "   leading and trailing   whitespace\tand\ttabs\n  ",
                    "I'm raising it to $15,000 because flights got pricier.");

    private static OnnxEmbedder embedder;
    private static AllMiniLmL6V2EmbeddingModel reference;
    private static Path modelDir;

    @BeforeAll
    static void load() throws Exception {
        modelDir = TestEmbedders.MODEL_DIR;
        embedder = OnnxEmbedder.load(ModelSpec.MINILM_L6_V2, modelDir, 1);
        reference = new AllMiniLmL6V2EmbeddingModel();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void tokenIdsEqualTheHuggingFaceTokenizer() throws Exception {
        Path json = modelDir.resolve("tokenizer.json");
        try (InputStream in =
                getClass()
                        .getClassLoader()
                        .getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            Files.copy(in, json, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        try (HuggingFaceTokenizer hf =
                HuggingFaceTokenizer.newInstance(json, Map.of("truncation", "false"))) {
            for (String text : TEXTS) {
                assertThat(embedder.tokenizer().encode(text))
                        .as(text)
                        .containsExactly(hf.encode(text).getIds());
            }
        }
    }

    @Test
    void vectorsEqualTheReferenceModel() {
        List<float[]> ours = embedder.embed(TEXTS);
        for (int i = 0; i < TEXTS.size(); i++) {
            float[] theirs = reference.embed(TEXTS.get(i)).content().vector();
            assertThat(Embedder.cosine(ours.get(i), theirs))
                    .as(TEXTS.get(i))
                    .isGreaterThan(0.9999f);
            for (int d = 0; d < theirs.length; d++) {
                assertThat(ours.get(i)[d]).isCloseTo(theirs[d], within(1e-4f));
            }
        }
    }

    @Test
    void vectorsAreUnitLengthAndIndependentOfBatchComposition() {
        float[] alone = embedder.embed(TEXTS.get(0));
        float[] inBatch = embedder.embed(TEXTS).get(0);
        double norm = 0;
        for (float f : alone) {
            norm += f * f;
        }
        assertThat(norm).isCloseTo(1.0, within(1e-5));
        assertThat(alone).hasSize(384);
        for (int d = 0; d < alone.length; d++) {
            assertThat(inBatch[d]).isCloseTo(alone[d], within(1e-5f));
        }
    }

    @Test
    void int8VariantStaysCloseToFp32AndIsChosenByVersion() {
        try (OnnxEmbedder int8 =
                OnnxEmbedder.load(ModelSpec.forVersion("minilm-l6-v2-int8"), modelDir, 1)) {
            assertThat(int8.version()).isEqualTo("minilm-l6-v2-int8");
            assertThat(int8.batches()).isFalse();
            assertThat(embedder.batches()).isTrue();
            assertThat(new CachingEmbedder(int8, 10).batches()).isFalse();
            List<float[]> quantised = int8.embed(TEXTS);
            List<float[]> full = embedder.embed(TEXTS);
            for (int i = 0; i < TEXTS.size(); i++) {
                assertThat(Embedder.cosine(quantised.get(i), full.get(i)))
                        .as(TEXTS.get(i))
                        .isGreaterThan(0.95f);
                // One text per call: the company a text keeps in a batch does not move it.
                assertThat(quantised.get(i)).isEqualTo(int8.embed(TEXTS.get(i)));
            }
        }
        assertThatThrownBy(() -> ModelSpec.forVersion("minilm-l6-v2-fp16"))
                .hasMessageContaining("unknown embedding version 'minilm-l6-v2-fp16'")
                .hasMessageContaining("minilm-l6-v2-fp32, minilm-l6-v2-int8");
    }

    @Test
    void textsOfVeryDifferentLengthsComeBackInTheirOrder() {
        List<String> mixed = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String text = TEXTS.get(i % TEXTS.size());
            // Short and long texts interleaved: they are embedded in separate model calls.
            mixed.add(i % 3 == 0 ? (text + " ").repeat(6) + i : text + " " + i);
        }
        List<float[]> batch = embedder.embed(mixed);
        assertThat(batch).hasSize(mixed.size());
        for (int i = 0; i < mixed.size(); i++) {
            float[] alone = embedder.embed(mixed.get(i));
            assertThat(Embedder.cosine(batch.get(i), alone))
                    .as(mixed.get(i))
                    .isGreaterThan(0.9999f);
        }
    }

    @Test
    void relatedSentencesAreCloserThanUnrelatedOnes() {
        List<float[]> v =
                embedder.embed(
                        List.of(
                                "What's my budget for the trip?",
                                "User's budget for the Hawaii trip is $10,000",
                                "The mitochondria is the powerhouse of the cell"));
        assertThat(Embedder.cosine(v.get(0), v.get(1))).isGreaterThan(0.6f);
        assertThat(Embedder.cosine(v.get(0), v.get(2))).isLessThan(0.2f);
    }

    @Test
    void longTextsAreTruncatedNotRejected() {
        String longText = "word ".repeat(2000);
        assertThat(embedder.tokenizer().encode(longText)).hasSize(256);
        assertThat(embedder.embed(longText)).hasSize(384);
    }

    @Test
    void cacheServesRepeatsWithoutCallingTheModelAgain() {
        CachingEmbedder cached = new CachingEmbedder(embedder, 2);
        float[] first = cached.embed("alpha");
        cached.embed(List.of("alpha", "beta"));
        assertThat(cached.stats()).containsExactly(1, 2);
        cached.embed("gamma");
        cached.embed("alpha");
        assertThat(cached.stats()[1]).as("alpha evicted by the bound of 2").isEqualTo(4);
        assertThat(cached.embed("alpha")).isEqualTo(first);
        assertThat(cached.version()).isEqualTo("minilm-l6-v2-fp32");
    }
}
