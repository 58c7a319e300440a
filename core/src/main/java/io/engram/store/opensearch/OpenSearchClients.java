package io.engram.store.opensearch;

import io.engram.config.EngramConfig;
import io.engram.store.opensearch.wire.JdkTransport;
import java.time.Duration;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * The blocking typed clients of the configured cluster (jobs, tools, bootstrap code, the serving
 * tier's writes on worker threads), signing their requests when so configured.
 */
public final class OpenSearchClients {

    private OpenSearchClients() {}

    /** A client that sends no credentials. */
    public static OpenSearchClient create(String baseUrl, Duration timeout) {
        return create(baseUrl, OpenSearchAuth.NONE, timeout);
    }

    public static OpenSearchClient create(String baseUrl, OpenSearchAuth auth, Duration timeout) {
        return new OpenSearchClient(new JdkTransport(baseUrl, auth.signer(), timeout));
    }

    public static OpenSearchClient forConfig(EngramConfig.OpenSearch config, Duration timeout) {
        return create(config.url(), config.auth(), timeout);
    }
}
