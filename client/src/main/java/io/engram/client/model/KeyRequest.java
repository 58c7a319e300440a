package io.engram.client.model;

import java.util.List;

/** A new API key: its tenant, project, environment and scopes (read, write, admin, operator). */
public record KeyRequest(
        String tenantId,
        String projectId,
        String environment,
        List<String> scopes,
        String name,
        Integer rateLimitPerS) {

    public static KeyRequest of(String tenantId, List<String> scopes) {
        return new KeyRequest(tenantId, null, null, scopes, null, null);
    }

    public KeyRequest in(String project, String env) {
        return new KeyRequest(tenantId, project, env, scopes, name, rateLimitPerS);
    }

    public KeyRequest named(String value) {
        return new KeyRequest(tenantId, projectId, environment, scopes, value, rateLimitPerS);
    }
}
