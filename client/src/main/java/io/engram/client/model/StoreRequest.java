package io.engram.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An explicit memory ({@code POST /v1/memories}), decided like an extracted fact. */
public record StoreRequest(
        String userId,
        String projectId,
        String content,
        String type,
        List<String> tags,
        Map<String, Object> metadata,
        Double importance,
        String sessionId,
        Instant validFrom) {

    public static StoreRequest of(String userId, String content) {
        return new StoreRequest(userId, null, content, null, null, null, null, null, null);
    }

    public StoreRequest withTags(List<String> values) {
        return new StoreRequest(
                userId,
                projectId,
                content,
                type,
                values,
                metadata,
                importance,
                sessionId,
                validFrom);
    }

    public StoreRequest withMetadata(Map<String, Object> values) {
        return new StoreRequest(
                userId, projectId, content, type, tags, values, importance, sessionId, validFrom);
    }

    public StoreRequest withType(String value) {
        return new StoreRequest(
                userId,
                projectId,
                content,
                value,
                tags,
                metadata,
                importance,
                sessionId,
                validFrom);
    }

    public StoreRequest withImportance(double value) {
        return new StoreRequest(
                userId, projectId, content, type, tags, metadata, value, sessionId, validFrom);
    }
}
