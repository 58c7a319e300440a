package io.engram.embedding;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.engram.memory.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A sentence embedder run with ONNX Runtime: BERT WordPiece tokens in, {@code last_hidden_state}
 * out, masked mean pooling and L2 normalisation. One session is shared by all threads.
 *
 * <p>Two variants of the same model: int8 (the default; weights quantised) and fp32. Their vectors
 * are close but not the same, so the two never share an index (the version names the index alias).
 * The int8 model quantises activations with one scale per call, so a text's vector would depend on
 * the texts batched with it; it is run one text per call, which keeps every vector reproducible and
 * is still faster than fp32 in batches.
 */
public final class OnnxEmbedder implements Embedder {

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
         * e5-small-v2 with int8 weights: twelve layers against MiniLM's six, so twice the cost per
         * text, for much better retrieval (benchmarks/results/locomo.md). It is asymmetric (a query
         * and a passage are embedded with different prefixes), and any two English sentences have a
         * cosine of about 0.7: its similarities are its cosines rescaled from that floor. With it,
         * each excerpt gets the vector of its own turn, and recall fuses the excerpts' k-NN ranking
         * into its answer ({@link #excerptVectors}): on LoCoMo that pays with this model, not with
         * MiniLM.
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
         * The default: on LoCoMo as good as fp32 (benchmarks/results/locomo.md), at less than half
         * the cost per text.
         */
        public static final ModelSpec DEFAULT = MINILM_L6_V2_INT8;

        /** The model of an {@code embedding.version}; an unknown version names the known ones. */
        public static ModelSpec forVersion(String version) {
            return KNOWN.stream()
                    .filter(m -> m.version().equals(version))
                    .findFirst()
                    .orElseThrow(
                            () ->
                                    new IllegalArgumentException(
                                            "unknown embedding version '"
                                                    + version
                                                    + "'; known: "
                                                    + knownVersions()));
        }

        /**
         * The similarity of two texts whose vectors have this cosine: about 0 for unrelated texts,
         * 1 for the same text. Thresholds (deduplication, clustering) and the semantic signal of
         * ranking are similarities, so they mean the same for every model.
         */
        public double similarity(double cosine) {
            return cosineFloor == 0
                    ? cosine
                    : Math.max(-1, (cosine - cosineFloor) / (1 - cosineFloor));
        }

        /** The cosine at which two texts have {@code similarity}: the inverse of the above. */
        public double cosineAt(double similarity) {
            return cosineFloor + similarity * (1 - cosineFloor);
        }

        /** The scale of {@code version}'s model; cosines as they are for a version not known. */
        public static ModelSpec scaleOf(String version) {
            return KNOWN.stream()
                    .filter(m -> m.version().equals(version))
                    .findFirst()
                    .orElse(UNSCALED);
        }

        private static final ModelSpec UNSCALED = new ModelSpec("", "", "", 0, 0, true);

        /** The versions {@link #forVersion} knows, comma-separated. */
        public static String knownVersions() {
            return String.join(", ", KNOWN.stream().map(ModelSpec::version).toList());
        }
    }

    private final ModelSpec spec;
    private final OrtEnvironment env;
    private final OrtSession session;
    private final WordPieceTokenizer tokenizer;
    private final boolean needsTokenTypes;

    private OnnxEmbedder(
            ModelSpec spec, OrtEnvironment env, OrtSession session, WordPieceTokenizer tokenizer) {
        this.spec = spec;
        this.env = env;
        this.session = session;
        this.tokenizer = tokenizer;
        this.needsTokenTypes = session.getInputNames().contains("token_type_ids");
    }

    /**
     * Loads the model, copying it once from the classpath into {@code modelDir} (ONNX Runtime reads
     * a file path without holding the model on the heap). {@code intraOpThreads} is per call.
     */
    public static OnnxEmbedder load(ModelSpec spec, Path modelDir, int intraOpThreads) {
        try {
            Path model = copyResource(spec.modelResource(), modelDir);
            WordPieceTokenizer tokenizer;
            try (InputStream in = resource(spec.tokenizerResource())) {
                tokenizer = WordPieceTokenizer.fromTokenizerJson(in, spec.maxTokens());
            }
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            OrtSession session = env.createSession(model.toString(), options);
            return new OnnxEmbedder(spec, env, session, tokenizer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load embedding model " + spec.version(), e);
        } catch (OrtException e) {
            throw new IllegalStateException(
                    "ONNX Runtime cannot load " + spec.version() + ": " + e.getMessage(), e);
        }
    }

    /** A group of texts padded together may waste at most this share of its tokens on padding. */
    static final double MAX_PADDING = 0.25;

    /**
     * Embeds in model calls of texts of similar length: a batch is padded to its longest text, so
     * one long text among short ones (an excerpt among facts) would make every short one cost as
     * much as it. Texts are sorted by token count and cut into groups that waste at most {@link
     * #MAX_PADDING} of their tokens (a model that is not batch-invariant gets one text per call);
     * the vectors come back in the order of {@code texts}.
     */
    /** Passages: what is stored and searched for. */
    @Override
    public List<float[]> embed(List<String> texts) {
        return embedPrefixed(spec.passagePrefix(), texts);
    }

    /** Queries: what searches for stored passages (an asymmetric model embeds them apart). */
    @Override
    public List<float[]> embedQueries(Scope owner, List<String> texts) {
        return embedPrefixed(spec.queryPrefix(), texts);
    }

    @Override
    public double similarity(double cosine) {
        return spec.similarity(cosine);
    }

    private List<float[]> embedPrefixed(String prefix, List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        if (!prefix.isEmpty()) {
            texts = texts.stream().map(t -> prefix + t).toList();
        }
        int n = texts.size();
        long[][] ids = new long[n][];
        for (int i = 0; i < n; i++) {
            ids[i] = tokenizer.encode(texts.get(i));
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> ids[i].length));
        float[][] out = new float[n][];
        int start = 0;
        long tokens = 0;
        for (int k = 0; k < n; k++) {
            tokens += ids[order[k]].length;
            boolean last = k == n - 1;
            if (last
                    || !spec.batchInvariant()
                    || (long) ids[order[k + 1]].length * (k + 2 - start) * (1 - MAX_PADDING)
                            > tokens + ids[order[k + 1]].length) {
                long[][] group = new long[k + 1 - start][];
                for (int g = 0; g < group.length; g++) {
                    group[g] = ids[order[start + g]];
                }
                List<float[]> vectors = run(group);
                for (int g = 0; g < group.length; g++) {
                    out[order[start + g]] = vectors.get(g);
                }
                start = k + 1;
                tokens = 0;
            }
        }
        return Arrays.asList(out);
    }

    /** One model call: the token ids padded to the longest, mean-pooled over the real tokens. */
    private List<float[]> run(long[][] ids) {
        int batch = ids.length;
        int maxLen = 0;
        for (long[] t : ids) {
            maxLen = Math.max(maxLen, t.length);
        }
        long[] inputIds = new long[batch * maxLen];
        long[] mask = new long[batch * maxLen];
        for (int i = 0; i < batch; i++) {
            System.arraycopy(ids[i], 0, inputIds, i * maxLen, ids[i].length);
            for (int j = 0; j < ids[i].length; j++) {
                mask[i * maxLen + j] = 1;
            }
        }
        long[] shape = {batch, maxLen};
        try (OnnxTensor idsTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(inputIds), shape);
                OnnxTensor maskTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
                OnnxTensor typesTensor =
                        OnnxTensor.createTensor(
                                env, LongBuffer.wrap(new long[batch * maxLen]), shape)) {
            Map<String, OnnxTensor> inputs =
                    needsTokenTypes
                            ? Map.of(
                                    "input_ids",
                                    idsTensor,
                                    "attention_mask",
                                    maskTensor,
                                    "token_type_ids",
                                    typesTensor)
                            : Map.of("input_ids", idsTensor, "attention_mask", maskTensor);
            try (OrtSession.Result result = session.run(inputs)) {
                // One flat copy of [batch, maxLen, dim], not a Java array per token.
                FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
                List<float[]> out = new ArrayList<>(batch);
                for (int i = 0; i < batch; i++) {
                    out.add(
                            meanPoolAndNormalise(
                                    hidden, i * maxLen * spec.dimension(), ids[i].length));
                }
                return out;
            }
        } catch (OrtException e) {
            throw new EmbeddingException("embedding failed: " + e.getMessage(), e);
        }
    }

    /** The mean of a text's {@code length} real token vectors, from {@code offset}, unit length. */
    private float[] meanPoolAndNormalise(FloatBuffer hidden, int offset, int length) {
        int dim = spec.dimension();
        float[] v = new float[dim];
        for (int t = 0; t < length; t++) {
            int token = offset + t * dim;
            for (int d = 0; d < dim; d++) {
                v[d] += hidden.get(token + d);
            }
        }
        double norm = 0;
        for (int d = 0; d < dim; d++) {
            v[d] /= length;
            norm += v[d] * v[d];
        }
        float inv = (float) (1.0 / Math.max(Math.sqrt(norm), 1e-12));
        for (int d = 0; d < dim; d++) {
            v[d] *= inv;
        }
        return v;
    }

    public WordPieceTokenizer tokenizer() {
        return tokenizer;
    }

    /** Models that are not batch-invariant run one text per call. */
    @Override
    public boolean batches() {
        return spec.batchInvariant();
    }

    @Override
    public String version() {
        return spec.version();
    }

    @Override
    public int dimension() {
        return spec.dimension();
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new EmbeddingException("closing the ONNX session failed", e);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = OnnxEmbedder.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("resource " + name + " is not on the classpath");
        }
        return in;
    }

    /** Copies a classpath resource into {@code dir} once; a complete copy is reused. */
    private static Path copyResource(String name, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(name);
        long expected;
        try (InputStream in = resource(name)) {
            expected = -1;
            if (Files.exists(target)) {
                expected = in.transferTo(java.io.OutputStream.nullOutputStream());
                if (Files.size(target) == expected) {
                    return target;
                }
            }
        }
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        try (InputStream in = resource(name)) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(
                tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }
}
