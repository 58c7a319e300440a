package io.engram.cache;

import io.engram.memory.Scope;

/** Redis key names shared by both planes. */
public final class CacheKeys {

    private CacheKeys() {}

    /**
     * A counter bumped after every write to the scope's memories; part of every result-cache key.
     */
    public static String generation(Scope scope) {
        return "engram:gen:"
                + scope.tenantId()
                + "/"
                + scope.projectId()
                + "/"
                + scope.environment()
                + "/"
                + scope.userId();
    }
}
