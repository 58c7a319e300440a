package io.engram.benchmarks.recall;

import io.engram.benchmarks.core.BenchmarkDefaults;
import io.engram.benchmarks.core.EmbeddingBenchmark;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One query embedding (int8 MiniLM, one thread, as the serving tier runs it) right after the
 * calling thread was idle, as a recall's embedding thread is between requests: before each timed
 * call the thread sleeps, or spins, for a while that is not measured. Against {@code none} (back to
 * back, as the recall benchmark's bare cost is timed) this is what waking up costs on the machine:
 * sleeping lets the core go idle, spinning keeps it awake and only leaves the model alone. {@code
 * benchmarks/bin/embedding-idle} runs it.
 */
public class EmbeddingAfterIdleBenchmark extends BenchmarkDefaults {

    @Param({"none", "sleep-1ms", "sleep-3ms", "sleep-20ms", "spin-3ms", "spin-20ms"})
    public String before;

    private OnnxEmbedder embedder;
    private Path modelDir;
    private int next;
    private long spun;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        modelDir = Files.createTempDirectory("engram-bench-model");
        embedder = OnnxEmbedder.load(ModelSpec.DEFAULT, modelDir, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        embedder.close();
        BenchmarkStores.deleteTree(modelDir);
    }

    /** The idle time before a call; JMH does not count it. */
    @Setup(Level.Invocation)
    public void idle() throws InterruptedException {
        switch (before) {
            case "none" -> {}
            case "sleep-1ms" -> Thread.sleep(1);
            case "sleep-3ms" -> Thread.sleep(3);
            case "sleep-20ms" -> Thread.sleep(20);
            case "spin-3ms" -> spin(3);
            case "spin-20ms" -> spin(20);
            default -> throw new IllegalArgumentException("unknown idle mode " + before);
        }
    }

    /** Busy-waits: the core stays awake, only the model is left alone. */
    private void spin(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            spun++;
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] queryEmbedding() {
        return embedder.embed(EmbeddingBenchmark.TEXTS[next++ & 7]);
    }
}
