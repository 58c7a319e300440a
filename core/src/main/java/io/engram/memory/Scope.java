package io.engram.memory;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Whose memories an operation may touch: one user within one tenant, project and environment. Every
 * read and write of memories carries a scope; none can be built without tenant and user.
 */
public record Scope(String tenantId, String projectId, String environment, String userId) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

    public Scope {
        requireId("tenant_id", tenantId);
        requireId("project_id", projectId);
        requireId("environment", environment);
        requireId("user_id", userId);
    }

    /** The OpenSearch routing key: a user's documents live on one shard. */
    public String routing() {
        return tenantId + "/" + userId;
    }

    public static void requireId(String field, String value) {
        Objects.requireNonNull(value, field + " is required");
        if (!ID.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    field
                            + " must be 1-128 characters of letters, digits and . _ : @ -,"
                            + " starting with a letter or digit");
        }
    }

    public static boolean isValidId(String value) {
        return value != null && ID.matcher(value).matches();
    }
}
