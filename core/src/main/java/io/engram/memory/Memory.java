package io.engram.memory;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One version of a memory as both stores hold it (PostgreSQL row, OpenSearch document), with its
 * vector. Scores the maintenance jobs own (quality, consistency, decay, usage) are not here: the
 * write plane never overwrites them.
 */
public record Memory(
        UUID id,
        Scope scope,
        Optional<String> sessionId,
        MemoryType type,
        String content,
        List<String> tags,
        String source,
        List<String> sourceTurnIds,
        double importance,
        Tier tier,
        MemoryStatus status,
        Instant validFrom,
        Optional<Instant> validTo,
        Optional<UUID> supersededBy,
        int version,
        String embeddingVersion,
        float[] vector,
        Instant createdAt) {

    public Memory {
        tags = List.copyOf(tags);
        sourceTurnIds = List.copyOf(sourceTurnIds);
    }

    public Memory withContent(
            String newContent,
            List<String> newTags,
            List<String> newSources,
            double newImportance,
            Instant newValidFrom,
            float[] newVector) {
        return new Memory(
                id,
                scope,
                sessionId,
                type,
                newContent,
                newTags,
                source,
                newSources,
                newImportance,
                tier,
                status,
                newValidFrom,
                validTo,
                supersededBy,
                version + 1,
                embeddingVersion,
                newVector,
                createdAt);
    }

    public Memory superseded(UUID by, Instant validUntil) {
        return new Memory(
                id,
                scope,
                sessionId,
                type,
                content,
                tags,
                source,
                sourceTurnIds,
                importance,
                tier,
                MemoryStatus.SUPERSEDED,
                validFrom,
                Optional.of(validUntil),
                Optional.of(by),
                version + 1,
                embeddingVersion,
                vector,
                createdAt);
    }

    /**
     * The same fact as a new memory: first version, hot, active, created {@code at}, its id from
     * its scope, source turns and words.
     */
    public Memory asNew(Instant at) {
        return new Memory(
                MemoryIds.fromConversation(scope, sourceTurnIds, content),
                scope,
                sessionId,
                type,
                content,
                tags,
                source,
                sourceTurnIds,
                importance,
                Tier.HOT,
                MemoryStatus.ACTIVE,
                validFrom,
                Optional.empty(),
                Optional.empty(),
                1,
                embeddingVersion,
                vector,
                at);
    }

    public Memory reinforced(List<String> moreSources, double otherImportance) {
        java.util.LinkedHashSet<String> sources = new java.util.LinkedHashSet<>(sourceTurnIds);
        sources.addAll(moreSources);
        return new Memory(
                id,
                scope,
                sessionId,
                type,
                content,
                tags,
                source,
                List.copyOf(sources),
                Math.max(importance, otherImportance),
                tier,
                status,
                validFrom,
                validTo,
                supersededBy,
                version,
                embeddingVersion,
                vector,
                createdAt);
    }
}
