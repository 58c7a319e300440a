package io.engram.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.engram.services.Await;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * The signer's credentials come from the AWS SDK's default chain: here from a container credentials
 * endpoint speaking the protocol of EKS Pod Identity's agent (a loopback server: the agent runs on
 * AWS's nodes), named by the system properties that stand for the variables the agent sets ({@code
 * AWS_CONTAINER_CREDENTIALS_FULL_URI}, {@code AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE}). Profiles
 * and instance metadata are pointed away so the machine's own setup plays no part.
 */
class AwsCredentialsChainTest {

    private static final List<String> PROPERTIES =
            List.of(
                    "aws.containerCredentialsFullUri",
                    "aws.containerAuthorizationTokenFile",
                    "aws.disableEc2Metadata",
                    "aws.sharedCredentialsFile",
                    "aws.configFile",
                    "aws.webIdentityTokenFile",
                    "aws.roleArn",
                    "aws.roleSessionName",
                    "aws.region",
                    "aws.endpointUrlSts");

    @TempDir Path dir;
    private final Map<String, String> saved = new HashMap<>();

    @BeforeEach
    void isolate() {
        for (String p : PROPERTIES) {
            saved.put(p, System.getProperty(p));
        }
        System.setProperty("aws.disableEc2Metadata", "true");
        System.setProperty("aws.sharedCredentialsFile", dir.resolve("none").toString());
        System.setProperty("aws.configFile", dir.resolve("none").toString());
    }

    @AfterEach
    void restore() {
        saved.forEach(
                (k, v) -> {
                    if (v == null) {
                        System.clearProperty(k);
                    } else {
                        System.setProperty(k, v);
                    }
                });
    }

    @Test
    void podIdentityCredentialsAreFetchedWithTheTokenAndRenewedBeforeTheyExpire() throws Exception {
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, "agent-token-1");
        List<String> authorizations = new CopyOnWriteArrayList<>();
        AtomicInteger served = new AtomicInteger();
        HttpServer agent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        agent.createContext(
                "/v1/credentials",
                exchange -> {
                    authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
                    int n = served.incrementAndGet();
                    // Each answer expires in two minutes: inside the window the SDK renews in.
                    String expiration = Instant.now().plusSeconds(120).toString();
                    byte[] body =
                            ("{\"AccessKeyId\":\"ASIA"
                                            + n
                                            + "\",\"SecretAccessKey\":\"secret"
                                            + n
                                            + "\",\"Token\":\"session"
                                            + n
                                            + "\",\"Expiration\":\""
                                            + expiration
                                            + "\"}")
                                    .getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        agent.start();
        System.setProperty(
                "aws.containerCredentialsFullUri",
                "http://127.0.0.1:" + agent.getAddress().getPort() + "/v1/credentials");
        System.setProperty("aws.containerAuthorizationTokenFile", tokenFile.toString());
        try (DefaultCredentialsProvider chain =
                DefaultCredentialsProvider.builder().asyncCredentialUpdateEnabled(true).build()) {
            AwsSigner signer = new AwsSigner(chain, "eu-west-1", "es", Clock.systemUTC());
            URI uri = URI.create("https://search-x.eu-west-1.es.amazonaws.com/_cluster/health");
            Map<String, String> first = signer.headers("GET", uri, null);
            assertThat(first.get("Authorization")).contains("Credential=ASIA1/");
            assertThat(first).containsEntry("X-Amz-Security-Token", "session1");
            assertThat(authorizations).containsExactly("agent-token-1");

            // The agent rotates its token file; the next fetch reads it again.
            Files.writeString(tokenFile, "agent-token-2");
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(30),
                                    () ->
                                            !signer.headers("GET", uri, null)
                                                    .get("Authorization")
                                                    .contains("Credential=ASIA1/")))
                    .as("renewed before expiry")
                    .isTrue();
            assertThat(authorizations.get(1)).isEqualTo("agent-token-2");
        } finally {
            agent.stop(0);
        }
    }

    /**
     * IRSA: the pod's service-account token exchanged for the role's credentials with STS's
     * AssumeRoleWithWebIdentity (STS on loopback, speaking its query protocol).
     */
    @Test
    void aWebIdentityTokenIsExchangedForTheRolesCredentials() throws Exception {
        Path token = dir.resolve("web-identity-token");
        Files.writeString(token, "eyJ.service-account-token.sig");
        List<String> forms = new CopyOnWriteArrayList<>();
        HttpServer sts = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sts.createContext(
                "/",
                exchange -> {
                    forms.add(
                            new String(
                                    exchange.getRequestBody().readAllBytes(),
                                    StandardCharsets.UTF_8));
                    byte[] body =
                            ("<AssumeRoleWithWebIdentityResponse"
                                            + " xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                                            + "<AssumeRoleWithWebIdentityResult><Credentials>"
                                            + "<AccessKeyId>ASIAIRSA</AccessKeyId>"
                                            + "<SecretAccessKey>irsa-secret</SecretAccessKey>"
                                            + "<SessionToken>irsa-session</SessionToken>"
                                            + "<Expiration>"
                                            + Instant.now().plusSeconds(3600)
                                            + "</Expiration></Credentials>"
                                            + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:"
                                            + "assumed-role/engram-serving/s</Arn>"
                                            + "<AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser>"
                                            + "</AssumeRoleWithWebIdentityResult>"
                                            + "<ResponseMetadata><RequestId>1</RequestId>"
                                            + "</ResponseMetadata></AssumeRoleWithWebIdentityResponse>")
                                    .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "text/xml");
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        sts.start();
        System.setProperty("aws.webIdentityTokenFile", token.toString());
        System.setProperty("aws.roleArn", "arn:aws:iam::123456789012:role/engram-serving");
        System.setProperty("aws.roleSessionName", "engram-test");
        System.setProperty("aws.region", "eu-west-1");
        System.setProperty("aws.endpointUrlSts", "http://127.0.0.1:" + sts.getAddress().getPort());
        try (DefaultCredentialsProvider chain = DefaultCredentialsProvider.builder().build()) {
            AwsSigner signer = new AwsSigner(chain, "eu-west-1", "es", Clock.systemUTC());
            Map<String, String> h =
                    signer.headers("GET", URI.create("https://x.example/_cluster/health"), null);
            assertThat(h.get("Authorization")).contains("Credential=ASIAIRSA/");
            assertThat(h).containsEntry("X-Amz-Security-Token", "irsa-session");
            assertThat(forms).hasSize(1);
            assertThat(forms.get(0))
                    .contains("Action=AssumeRoleWithWebIdentity")
                    .contains("WebIdentityToken=eyJ.service-account-token.sig")
                    .contains("RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fengram-serving");
        } finally {
            sts.stop(0);
        }
    }

    @Test
    void noCredentialsAreNamedAsSuch() {
        try (DefaultCredentialsProvider chain = DefaultCredentialsProvider.builder().build()) {
            AwsSigner signer = new AwsSigner(chain, "eu-west-1", "es", Clock.systemUTC());
            assertThatThrownBy(() -> signer.headers("GET", URI.create("https://x.example/"), null))
                    .hasMessageContaining("no AWS credentials")
                    .hasMessageContaining("AWS_WEB_IDENTITY_TOKEN_FILE");
        }
    }
}
