package io.engram.serving.auth;

import io.engram.memory.Scope;
import io.engram.serving.http.Problem;
import java.util.Set;

/** Who is calling: the key's tenant, project and environment, what it may do, and its rate. */
public record Principal(
        String keyId,
        String tenantId,
        String projectId,
        String environment,
        Set<String> scopes,
        int ratePerSecond) {

    /** The scope that manages the keys of every tenant; admin alone manages its own tenant. */
    public static final String OPERATOR = "operator";

    /**
     * Fails with 403 unless the key has {@code scope}; admin implies read and write of its tenant,
     * never {@link #OPERATOR}.
     */
    public void require(String scope) {
        boolean held =
                scopes.contains(scope) || (!scope.equals(OPERATOR) && scopes.contains("admin"));
        if (!held) {
            throw Problem.forbidden("this API key lacks the '" + scope + "' scope");
        }
    }

    /**
     * The tenant whose keys a key-management request of this key may touch: its own, or any with
     * the {@link #OPERATOR} scope (403 naming the field otherwise).
     */
    public String manageableTenant(String field, String tenant) {
        if (tenant == null || tenant.equals(tenantId)) {
            return tenantId;
        }
        if (!scopes.contains(OPERATOR)) {
            throw Problem.forbidden(
                    field
                            + ": this API key manages the keys of tenant '"
                            + tenantId
                            + "' only; other tenants need the 'operator' scope");
        }
        return tenant;
    }

    public boolean isOperator() {
        return scopes.contains(OPERATOR);
    }

    /**
     * The memory scope of a request for {@code userId}. The environment always comes from the key;
     * another project than the key's needs an admin key.
     */
    public Scope scopeFor(String userId, String projectOverride) {
        String project = projectOverride == null ? projectId : projectOverride;
        if (!project.equals(projectId) && !scopes.contains("admin")) {
            throw Problem.forbidden("project_id: this API key is for project '" + projectId + "'");
        }
        return new Scope(tenantId, project, environment, userId);
    }
}
