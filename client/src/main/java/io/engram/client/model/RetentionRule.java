package io.engram.client.model;

import java.time.Instant;

/**
 * How long memories of a level (project and category, category, project, tenant) are kept; a null
 * {@code keepDays} keeps them forever.
 */
public record RetentionRule(
        String id,
        String projectId,
        String category,
        Integer keepDays,
        Integer graceDays,
        Instant updatedAt) {

    /** A rule to set ({@code PUT /v1/admin/retention-rules}). */
    public static RetentionRule of(String projectId, String category, Integer keepDays) {
        return new RetentionRule(null, projectId, category, keepDays, null, null);
    }
}
