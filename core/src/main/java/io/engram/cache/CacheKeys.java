package io.engram.cache;

import io.engram.memory.Scope;

/**
 * Redis key names shared by both planes. Every key of a scope carries the scope in braces, Redis
 * Cluster's hash tag: a scope's keys live in one slot, so one command can read several of them.
 */
public final class CacheKeys {

    private CacheKeys() {}

    /**
     * A counter bumped after every write to the scope's memories; a cached answer is valid only at
     * the generation it was computed at.
     */
    public static String generation(Scope scope) {
        return "engram:gen:" + tag(scope);
    }

    /**
     * A counter bumped after every write to the scope's memories by anything but the extraction job
     * (the API, the maintenance jobs): the job reloads a user whose counter moved since it last
     * loaded them.
     */
    public static String otherWrites(Scope scope) {
        return "engram:other:" + tag(scope);
    }

    /** The prefix of the scope's cached answers, followed by a digest of the request. */
    public static String resultPrefix(Scope scope) {
        return "engram:res:" + tag(scope) + ":";
    }

    /** The set of the scope's cached answers' keys: what forgetting the scope deletes. */
    public static String resultIndex(Scope scope) {
        return "engram:resindex:" + tag(scope);
    }

    /**
     * The channel on which a serving instance tells the others what their in-process caches must
     * drop: a forgotten user's texts, the answers of revoked API keys.
     */
    public static final String PEER_CHANNEL = "engram:peers";

    private static String tag(Scope scope) {
        return "{"
                + scope.tenantId()
                + "/"
                + scope.projectId()
                + "/"
                + scope.environment()
                + "/"
                + scope.userId()
                + "}";
    }
}
