package io.engram.client.model;

import java.time.Instant;
import java.util.List;

/**
 * An API key. {@code key} (the secret) is only set in the answer that created it; a listed key has
 * its prefix instead.
 */
public record ApiKey(
        String id,
        String key,
        String keyPrefix,
        String tenantId,
        String projectId,
        String environment,
        List<String> scopes,
        String name,
        Integer rateLimitPerS,
        Instant createdAt,
        Boolean revoked) {}
