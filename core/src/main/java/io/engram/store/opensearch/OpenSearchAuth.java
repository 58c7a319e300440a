package io.engram.store.opensearch;

import io.engram.aws.AwsCredentialsSource;
import io.engram.aws.RequestSigner;
import java.io.Serializable;
import java.time.Clock;

/**
 * How Engram's OpenSearch clients say who they are: {@code none} (the network decides), or {@code
 * aws-sigv4}: every request signed with the process's AWS credentials for {@code service} ({@code
 * es}: OpenSearch Service, {@code aoss}: OpenSearch Serverless) in {@code region}. Serializable:
 * the jobs ship it to their task managers.
 */
public record OpenSearchAuth(String mode, String region, String service) implements Serializable {

    public static final String NONE_MODE = "none";
    public static final String SIGV4_MODE = "aws-sigv4";

    public static final OpenSearchAuth NONE = new OpenSearchAuth(NONE_MODE, "", "es");

    public boolean signed() {
        return SIGV4_MODE.equals(mode);
    }

    /** The signer of this process's requests (its AWS credentials are looked up on first use). */
    public RequestSigner signer() {
        return signed()
                ? RequestSigner.sigV4(
                        AwsCredentialsSource.shared(), region, service, Clock.systemUTC())
                : RequestSigner.NONE;
    }
}
