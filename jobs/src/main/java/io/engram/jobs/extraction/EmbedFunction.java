package io.engram.jobs.extraction;

import io.engram.embedding.OnnxEmbedder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/** Embeds all facts of a batch in one model call. */
public class EmbedFunction extends RichMapFunction<FactBatch, FactBatch> {

    private static final long serialVersionUID = 1L;

    private final ExtractionSettings settings;
    private transient OnnxEmbedder embedder;

    public EmbedFunction(ExtractionSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext context) {
        embedder =
                OnnxEmbedder.load(
                        OnnxEmbedder.ModelSpec.forVersion(settings.embeddingVersion()),
                        Path.of(settings.modelDir()),
                        settings.intraOpThreads());
    }

    @Override
    public FactBatch map(FactBatch batch) {
        List<String> texts = Arrays.stream(batch.facts).map(f -> f.content).toList();
        List<float[]> vectors = embedder.embed(texts);
        for (int i = 0; i < batch.facts.length; i++) {
            batch.facts[i].vector = vectors.get(i);
        }
        return batch;
    }

    @Override
    public void close() {
        if (embedder != null) {
            embedder.close();
        }
    }
}
