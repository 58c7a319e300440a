package io.engram.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Scope;
import java.time.Instant;

/**
 * A record that could not be used, as written to {@code engram.turns.dlq}: why, where it came from,
 * and the original payload (text, or {@code base64:} when it was not UTF-8).
 */
public record DeadLetter(
        String reason,
        String sourceTopic,
        int partition,
        long offset,
        String key,
        String payload,
        Instant rejectedAt) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static DeadLetter of(
            String reason,
            String topic,
            int partition,
            long offset,
            byte[] key,
            byte[] value,
            Instant now) {
        return new DeadLetter(
                reason,
                topic,
                partition,
                offset,
                key == null ? null : EventCodec.describePayload(key),
                EventCodec.describePayload(value),
                now);
    }

    public byte[] toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("reason", reason);
        o.put("source_topic", sourceTopic);
        o.put("partition", partition);
        o.put("offset", offset);
        o.put("key", key);
        o.put("payload", payload);
        o.put("rejected_at", rejectedAt.toString());
        try {
            return JSON.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The dead letter of a record a stage after parsing could not process: which stage ({@code
     * kind}), why, whose it was (scope, session, turn ids); never the content.
     */
    public static byte[] ofStage(
            String kind,
            String reason,
            Scope scope,
            String session,
            java.util.Collection<String> turnIds,
            Instant now) {
        ObjectNode o = JSON.createObjectNode();
        o.put("reason", reason);
        o.put("kind", kind);
        o.put("tenant_id", scope.tenantId());
        o.put("project_id", scope.projectId());
        o.put("environment", scope.environment());
        o.put("user_id", scope.userId());
        o.put("session_id", session);
        var ids = o.putArray("turn_ids");
        turnIds.forEach(ids::add);
        o.put("rejected_at", now.toString());
        try {
            return JSON.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
