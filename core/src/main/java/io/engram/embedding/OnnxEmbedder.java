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
