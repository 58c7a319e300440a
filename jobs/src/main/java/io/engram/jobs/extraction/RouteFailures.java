package io.engram.jobs.extraction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Sends failed extraction batches to the dead-letter output, with the turns they covered. */
public class RouteFailures extends ProcessFunction<FactBatch, FactBatch> {

    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public void processElement(FactBatch batch, Context ctx, Collector<FactBatch> out) {
        if (!batch.failed()) {
            if (batch.facts.length > 0) {
                out.collect(batch);
            }
            return;
        }
        ObjectNode letter = JSON.createObjectNode();
        letter.put(
                "reason", "extraction failed: " + batch.failureKind + ": " + batch.failureReason);
        letter.put("kind", "extraction_failure");
        letter.put("tenant_id", batch.tenantId);
        letter.put("project_id", batch.projectId);
        letter.put("environment", batch.environment);
        letter.put("user_id", batch.userId);
        letter.put("session_id", batch.sessionId);
        var ids = letter.putArray("turn_ids");
        for (String id : batch.turnIds) {
            ids.add(id);
        }
        letter.put("rejected_at", Instant.now().toString());
        ctx.output(
                ParseFunction.DEAD_LETTERS,
                letter.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
