package io.engram.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A memory, as a recall, a read or a list returns it (a field a call does not return is null).
 * {@code current} is false when it no longer holds as stated, and {@code contradictedByContent}
 * then says in its words what replaced it or that it ended; {@code context} is the excerpt of the
 * conversation a recalled fact was read from.
 */
public record Memory(
        String id,
        String userId,
        String sessionId,
        String content,
        String type,
        String tier,
        String status,
        Double score,
        Map<String, Double> scoreBreakdown,
        List<String> tags,
        Map<String, Object> metadata,
        String source,
        List<String> sourceTurnIds,
        Double importance,
        Double quality,
        Double consistency,
        Long usageCount,
        Instant lastAccessedAt,
        Instant createdAt,
        Instant updatedAt,
        Instant validFrom,
        Instant validTo,
        Integer version,
        String embeddingVersion,
        Boolean current,
        String contradictedBy,
        String contradictedByContent,
        String supersededBy,
        String context,
        String contextId,
        Boolean changed) {}
