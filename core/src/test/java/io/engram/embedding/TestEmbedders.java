package io.engram.embedding;

import java.nio.file.Path;

/** The embedding models tests run on, copied once into a directory shared by every test run. */
public final class TestEmbedders {

    /** Where tests keep the model files between runs. */
    public static final Path MODEL_DIR =
            Path.of(System.getProperty("java.io.tmpdir"), "engram-test-models");

    private TestEmbedders() {}

    /** The default model, one thread per call; the caller closes it. */
    public static OnnxEmbedder defaultModel() {
        return OnnxEmbedder.load(ModelSpec.DEFAULT, MODEL_DIR, 1);
    }
}
