package io.engram.benchmarks.core;

import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Embedding one query (latency distribution) and batches of 32 texts (throughput), MiniLM fp32 and
 * int8.
 */
public class EmbeddingBenchmark extends BenchmarkDefaults {

    static final int BATCH = 32;

    @Param({"1", "2"})
    public int intraOpThreads;

    @Param({"minilm-l6-v2-fp32", "minilm-l6-v2-int8"})
    public String model;

    private OnnxEmbedder embedder;
    private final List<String> batch = new ArrayList<>();
    private int next;

    /** Queries and facts of chat-memory length, used in turn. */
    public static final String[] TEXTS = {
        "What's my budget for the Hawaii trip?",
        "Alice's sister Kate is a nurse in Denver.",
        "Caroline went to the LGBTQ support group on 7 May 2023.",
        "What gift should I get for my wife's birthday?",
        "Bob moved to Denver last month and loves hiking in the Rockies.",
        "Remind me which restaurant we liked in Lisbon?",
        "Melanie is painting a sunrise over the lake with her kids.",
        "How much did the flights to Maui cost in the end?"
    };

    private Path modelDir;

    @Setup
    public void setUp() throws Exception {
        modelDir = Files.createTempDirectory("engram-bench-model");
        embedder = OnnxEmbedder.load(ModelSpec.forVersion(model), modelDir, intraOpThreads);
        for (int i = 0; i < BATCH; i++) {
            batch.add(TEXTS[i % TEXTS.length] + " #" + i);
        }
    }

    @TearDown
    public void tearDown() throws IOException {
        embedder.close();
        BenchmarkStores.deleteTree(modelDir);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] singleQuery() {
        return embedder.embed(TEXTS[next++ & 7]);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public List<float[]> batchOf32() {
        return embedder.embed(batch);
    }
}
