package io.engram.jobs.store;

import io.engram.memory.Memory;
import io.engram.memory.Scope;
import io.engram.store.opensearch.OpenSearchAuth;
import io.engram.store.opensearch.OpenSearchClients;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The production {@link KnownMemorySource}: the user's most recent current memories in the index.
 */
public final class IndexKnownMemories implements KnownMemorySource {

    private static final long serialVersionUID = 1L;

    private final String url;
    private final OpenSearchAuth auth;
    private final String alias;
    private final int perUser;

    public IndexKnownMemories(String url, OpenSearchAuth auth, String alias, int perUser) {
        this.url = url;
        this.auth = auth;
        this.alias = alias;
        this.perUser = perUser;
    }

    @Override
    public Function<Scope, List<Memory>> open() {
        KnownMemoryLoader index =
                new KnownMemoryLoader(
                        OpenSearchClients.create(url, auth, Duration.ofSeconds(10)), alias);
        return scope -> index.load(scope, perUser);
    }
}
