package io.engram.jobs.extraction;

import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.extraction.Excerpts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Embeds all facts of a batch in one model call. A batch the model cannot embed goes to the
 * dead-letter output; the next one is embedded as usual.
 */
public class EmbedFunction extends ProcessFunction<FactBatch, FactBatch> {

    private static final long serialVersionUID = 1L;

    private static final float[] NO_VECTOR = new float[0];

    private final ExtractionSettings settings;
    private final ExtractionJob.EmbedderSource embedders;
    private transient Embedder embedder;
    private transient Counter deadLetters;

    public EmbedFunction(ExtractionSettings settings, ExtractionJob.EmbedderSource embedders) {
        this.settings = settings;
        this.embedders = embedders;
    }

    @Override
    public void open(OpenContext context) {
        embedder = embedders.open(settings);
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(FactBatch batch, Context ctx, Collector<FactBatch> out) {
        // A fact is embedded by its words; an excerpt by its own turn when the model's excerpt
        // vectors pay, otherwise it has none and is found by its words (Excerpts#embeddedText).
        boolean excerptVectors = ModelSpec.scaleOf(embedder.version()).excerptVectors();
        List<FactRecord> embedded = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (FactRecord f : batch.facts) {
            Excerpts.embeddedText(Arrays.asList(f.tags), f.content, excerptVectors)
                    .ifPresent(
                            t -> {
                                embedded.add(f);
                                texts.add(t);
                            });
        }
        List<float[]> vectors;
        try {
            vectors = embedded.isEmpty() ? List.of() : embedder.embed(texts);
            if (vectors.size() != embedded.size()) {
                throw new IllegalStateException(
                        vectors.size() + " vectors for " + embedded.size() + " texts");
            }
        } catch (RuntimeException e) {
            deadLetters.inc();
            ctx.output(
                    ParseFunction.DEAD_LETTERS,
                    StageLetters.forBatch(
                            "embedding_failure",
                            "embedding failed: " + StageLetters.describe(e),
                            batch));
            return;
        }
        for (FactRecord f : batch.facts) {
            f.vector = NO_VECTOR;
        }
        for (int i = 0; i < embedded.size(); i++) {
            embedded.get(i).vector = vectors.get(i);
        }
        out.collect(batch);
    }

    @Override
    public void close() {
        if (embedder != null) {
            embedder.close();
        }
    }
}
