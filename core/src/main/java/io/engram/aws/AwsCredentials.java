package io.engram.aws;

import java.time.Instant;

/**
 * An AWS access key, with its session token when temporary (empty otherwise) and when it stops
 * working ({@link Instant#MAX}: never).
 */
public record AwsCredentials(
        String accessKeyId, String secretAccessKey, String sessionToken, Instant expiration) {

    @Override
    public String toString() {
        return "AwsCredentials[accessKeyId=" + accessKeyId + ", expiration=" + expiration + "]";
    }
}
