package io.engram.store.opensearch;

import io.engram.aws.AwsSigner;
import io.engram.aws.RequestSigner;
import java.io.Serializable;

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

    /**
     * The signer of this process's requests: the AWS SDK's, with the credentials of its default
     * provider chain (fetched on the first call, and shared by every client of the process).
     */
    public RequestSigner signer() {
        return signed() ? AwsSigner.forService(region, service) : RequestSigner.NONE;
    }
}
