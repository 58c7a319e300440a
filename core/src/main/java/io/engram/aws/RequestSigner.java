package io.engram.aws;

import java.net.URI;
import java.util.Map;

/** What a client adds to a request's headers so that the server knows who sent it. */
public interface RequestSigner {

    /**
     * The headers to add to a request to {@code uri} with {@code body} (null: none). The request is
     * signed for the Host {@link #host(URI)} gives, which the client must send.
     */
    Map<String, String> headers(String method, URI uri, byte[] body);

    /** Adds nothing. */
    RequestSigner NONE = (method, uri, body) -> Map.of();

    /** The Host header a client sends for {@code uri}: the port only when not the scheme's own. */
    static String host(URI uri) {
        int port = uri.getPort();
        boolean defaultPort =
                port == -1
                        || ("https".equals(uri.getScheme()) && port == 443)
                        || ("http".equals(uri.getScheme()) && port == 80);
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }
}
