package io.engram.embedding;

import java.util.List;

/**
 * A model and its tokenizer, as resources of a jar on the classpath.
 *
 * @param queryPrefix what a query is prefixed with before embedding ("" for a symmetric model)
 * @param passagePrefix what a stored text is prefixed with
 * @param cosineFloor the cosine of two unrelated texts, which {@link #similarity} maps to 0
 * @param excerptVectors whether excerpts are embedded (by their own turn) and searched by k-NN
 */
public record ModelSpec(
        String version,
        String modelResource,
        String tokenizerResource,
        int dimension,
        int maxTokens,
        boolean batchInvariant,
        String queryPrefix,
        String passagePrefix,
        double cosineFloor,
        boolean excerptVectors) {

    /** A symmetric model whose cosines are its similarities. */
    public ModelSpec(
            String version,
            String modelResource,
            String tokenizerResource,
            int dimension,
            int maxTokens,
            boolean batchInvariant) {
        this(
                version,
                modelResource,
                tokenizerResource,
                dimension,
                maxTokens,
                batchInvariant,
                "",
                "",
                0,
                false);
    }

    /** all-MiniLM-L6-v2, fp32, from the langchain4j model jar on Maven Central. */
    public static final ModelSpec MINILM_L6_V2 =
            new ModelSpec(
                    "minilm-l6-v2-fp32",
                    "all-minilm-l6-v2.onnx",
                    "all-minilm-l6-v2-tokenizer.json",
                    384,
                    256,
                    true);

    /** all-MiniLM-L6-v2 with int8 weights, from langchain4j's quantised model jar. */
    public static final ModelSpec MINILM_L6_V2_INT8 =
            new ModelSpec(
                    "minilm-l6-v2-int8",
                    "all-minilm-l6-v2-q.onnx",
                    "all-minilm-l6-v2-q-tokenizer.json",
                    384,
                    256,
                    false);

    /**
     * e5-small-v2 with int8 weights: twelve layers against MiniLM's six (measured here, one thread:
     * a short query 2.8 ms against 0.75, a 35-token turn 4.8 against 2.2), for better retrieval
     * (benchmarks/results/locomo-e5-small-v2-int8.md). It is asymmetric (a query and a passage are
     * embedded with different prefixes), and any two English sentences have a cosine of about 0.7:
     * its similarities are its cosines rescaled from that floor. With it, each excerpt gets the
     * vector of its own turn, and recall fuses the excerpts' k-NN ranking into its answer ({@link
     * #excerptVectors}): on LoCoMo that pays with this model, not with MiniLM.
     */
    public static final ModelSpec E5_SMALL_V2_INT8 =
            new ModelSpec(
                    "e5-small-v2-int8",
                    "e5-small-v2-q.onnx",
                    "e5-small-v2-q-tokenizer.json",
                    384,
                    256,
                    false,
                    "query: ",
                    "passage: ",
                    0.7,
                    true);

    public static final List<ModelSpec> KNOWN =
            List.of(MINILM_L6_V2, MINILM_L6_V2_INT8, E5_SMALL_V2_INT8);

    /**
     * The default: on LoCoMo as good as fp32 (benchmarks/results/locomo.md), at less than half the
     * cost per text.
     */
    public static final ModelSpec DEFAULT = MINILM_L6_V2_INT8;

    /** The model of an {@code embedding.version}; an unknown version names the known ones. */
    public static ModelSpec forVersion(String version) {
        return known(version)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "unknown embedding version '"
                                                + version
                                                + "'; known: "
                                                + knownVersions()));
    }

    /**
     * The similarity of two texts whose vectors have this cosine: about 0 for unrelated texts, 1
     * for the same text. Thresholds (deduplication, clustering) and the semantic signal of ranking
     * are similarities, so they mean the same for every model.
     */
    public double similarity(double cosine) {
        return cosineFloor == 0 ? cosine : Math.max(-1, (cosine - cosineFloor) / (1 - cosineFloor));
    }

    /** The cosine at which two texts have {@code similarity}: the inverse of the above. */
    public double cosineAt(double similarity) {
        return cosineFloor + similarity * (1 - cosineFloor);
    }

    /** The scale of {@code version}'s model; cosines as they are for a version not known. */
    public static ModelSpec scaleOf(String version) {
        return known(version).orElse(UNSCALED);
    }

    private static java.util.Optional<ModelSpec> known(String version) {
        return KNOWN.stream().filter(m -> m.version().equals(version)).findFirst();
    }

    private static final ModelSpec UNSCALED = new ModelSpec("", "", "", 0, 0, true);

    /** The versions {@link #forVersion} knows, comma-separated. */
    public static String knownVersions() {
        return String.join(", ", KNOWN.stream().map(ModelSpec::version).toList());
    }
}
