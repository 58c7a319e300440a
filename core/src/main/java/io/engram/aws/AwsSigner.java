package io.engram.aws;

import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Signs requests with AWS Signature Version 4 through the AWS SDK's signer, with the credentials of
 * the SDK's default provider chain: system properties, the environment ({@code
 * AWS_ACCESS_KEY_ID}…), web identity (IRSA: {@code AWS_WEB_IDENTITY_TOKEN_FILE} and {@code
 * AWS_ROLE_ARN}, exchanged with STS), the shared profile files, the container endpoint (EKS Pod
 * Identity, ECS) and EC2 instance metadata. The SDK's signer also signs the body's SHA-256 as a
 * header, which OpenSearch Serverless requires and OpenSearch Service accepts. Temporary
 * credentials are renewed in the background before they expire, so signing does not wait for the
 * network while the credentials endpoint answers; if it stays unreachable until they go stale, the
 * SDK fetches on the signing thread and, failing, this throws.
 */
public final class AwsSigner implements RequestSigner {

    private static AwsCredentialsProvider shared;

    private final AwsCredentialsProvider credentials;
    private final String region;
    private final String service;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    AwsSigner(AwsCredentialsProvider credentials, String region, String service, Clock clock) {
        this.credentials = credentials;
        this.region = region;
        this.service = service;
        this.clock = clock;
    }

    /**
     * The signer of this process's requests to {@code service} in {@code region}; its credentials
     * are fetched now, so a process without any fails at start, saying where they are looked for.
     */
    public static AwsSigner forService(String region, String service) {
        AwsSigner signer = new AwsSigner(sharedCredentials(), region, service, Clock.systemUTC());
        signer.identity();
        return signer;
    }

    private static synchronized AwsCredentialsProvider sharedCredentials() {
        if (shared == null) {
            shared =
                    DefaultCredentialsProvider.builder().asyncCredentialUpdateEnabled(true).build();
        }
        return shared;
    }

    @Override
    public Map<String, String> headers(String method, URI uri, byte[] body) {
        byte[] payload = body == null ? new byte[0] : body;
        SdkHttpRequest.Builder request =
                SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(uri);
        request.putHeader("Host", RequestSigner.host(uri));
        SignedRequest signed =
                signer.sign(
                        r ->
                                r.identity(identity())
                                        .request(request.build())
                                        .payload(ContentStreamProvider.fromByteArray(payload))
                                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                                        .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
        Map<String, String> out = new LinkedHashMap<>();
        signed.request()
                .forEachHeader(
                        (name, values) -> {
                            // The HTTP client sends the Host it signed; it may not be set by hand.
                            if (!name.equalsIgnoreCase("Host")) {
                                out.put(name, String.join(",", values));
                            }
                        });
        return out;
    }

    private AwsCredentialsIdentity identity() {
        try {
            return credentials.resolveCredentials();
        } catch (SdkClientException e) {
            throw new IllegalStateException(
                    "no AWS credentials for signing OpenSearch requests: set AWS_ACCESS_KEY_ID and"
                            + " AWS_SECRET_ACCESS_KEY, or run with a role (EKS Pod Identity, IRSA's"
                            + " AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN, ECS, an EC2 instance"
                            + " profile); "
                            + e.getMessage(),
                    e);
        }
    }
}
