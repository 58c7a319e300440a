package io.engram.jobs.extraction;

import io.engram.embedding.Embedder;
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
        List<float[]> vectors;
        try {
            vectors = embedder.embed(Arrays.stream(batch.facts).map(f -> f.content).toList());
            if (vectors.size() != batch.facts.length) {
                throw new IllegalStateException(
                        vectors.size() + " vectors for " + batch.facts.length + " texts");
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
        for (int i = 0; i < batch.facts.length; i++) {
            batch.facts[i].vector = vectors.get(i);
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
