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

    public void require(String scope) {
        if (!scopes.contains(scope) && !scopes.contains("admin")) {
            throw Problem.forbidden("this API key lacks the '" + scope + "' scope");
        }
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
