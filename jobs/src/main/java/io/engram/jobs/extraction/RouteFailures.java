package io.engram.jobs.extraction;

import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Sends failed extraction batches to the dead-letter output, with the turns they covered. */
public class RouteFailures extends ProcessFunction<FactBatch, FactBatch> {

    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(FactBatch batch, Context ctx, Collector<FactBatch> out) {
        if (!batch.failed()) {
            if (batch.facts.length > 0) {
                out.collect(batch);
            }
            return;
        }
        ctx.output(
                ParseFunction.DEAD_LETTERS,
                StageLetters.forBatch(
                        "extraction_failure",
                        "extraction failed: " + batch.failureKind + ": " + batch.failureReason,
                        batch));
    }
}
