package io.engram.jobs.extraction;

import io.engram.embedding.Embedder;
import io.engram.extraction.Excerpts;
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
        // Excerpts are found by their words (BM25 finds them as well as k-NN and BM25 together on
        // LoCoMo) and never compared with: only facts and summaries get a vector.
        List<FactRecord> embedded =
                Arrays.stream(batch.facts)
                        .filter(f -> !Excerpts.isExcerpt(Arrays.asList(f.tags)))
                        .toList();
        List<float[]> vectors;
        try {
            vectors =
                    embedded.isEmpty()
                            ? List.of()
                            : embedder.embed(embedded.stream().map(f -> f.content).toList());
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
