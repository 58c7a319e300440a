package io.engram.aws;

import java.net.URI;
import java.time.Clock;
import java.util.Map;

/** What a client adds to a request's headers so that the server knows who sent it. */
public interface RequestSigner {

    /** The headers to add to a request to {@code uri} with {@code body} (null: none). */
    Map<String, String> headers(String method, URI uri, byte[] body);

    /** Adds nothing. */
    RequestSigner NONE = (method, uri, body) -> Map.of();

    /** Signs with AWS Signature Version 4 for {@code service} in {@code region}. */
    static RequestSigner sigV4(
            AwsCredentialsSource credentials, String region, String service, Clock clock) {
        return (method, uri, body) ->
                SigV4.headers(
                        method, uri, body, credentials.current(), region, service, clock.instant());
    }
}
