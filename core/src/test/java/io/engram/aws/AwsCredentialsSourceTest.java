package io.engram.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.engram.services.Await;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials from the environment, and from a container credentials endpoint speaking the protocol
 * of EKS Pod Identity's agent (a loopback server here: the agent runs on AWS's nodes).
 */
class AwsCredentialsSourceTest {

    @TempDir Path dir;

    @Test
    void aKeyInTheEnvironmentIsUsedAsItIs() {
        try (AwsCredentialsSource source =
                AwsCredentialsSource.fromEnvironment(
                        Map.of(
                                "AWS_ACCESS_KEY_ID", "AKIA1",
                                "AWS_SECRET_ACCESS_KEY", "s1",
                                "AWS_SESSION_TOKEN", "t1"),
                        Clock.systemUTC())) {
            assertThat(source.current())
                    .isEqualTo(new AwsCredentials("AKIA1", "s1", "t1", Instant.MAX));
            assertThat(source.current().toString()).doesNotContain("s1").doesNotContain("t1");
        }
    }

    @Test
    void noCredentialsAreNamedAsSuch() {
        assertThatThrownBy(() -> AwsCredentialsSource.fromEnvironment(Map.of(), Clock.systemUTC()))
                .hasMessageContaining("no AWS credentials")
                .hasMessageContaining("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    }

    @Test
    void podIdentityCredentialsAreFetchedWithTheTokenAndRenewedBeforeTheyExpire() throws Exception {
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, "agent-token-1\n");
        List<String> authorizations = new CopyOnWriteArrayList<>();
        AtomicInteger served = new AtomicInteger();
        // Each answer expires 5 min and 1 s after the (fixed) clock: renewed after about 1 s.
        Instant now = Instant.parse("2026-11-23T17:00:00Z");
        String expiration = now.plus(AwsCredentialsSource.REFRESH_AHEAD).plusSeconds(1).toString();
        HttpServer agent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        agent.createContext(
                "/v1/credentials",
                exchange -> {
                    authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
                    int n = served.incrementAndGet();
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
        try (AwsCredentialsSource source =
                AwsCredentialsSource.fromEnvironment(
                        Map.of(
                                "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                                "http://127.0.0.1:"
                                        + agent.getAddress().getPort()
                                        + "/v1/credentials",
                                "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
                                tokenFile.toString()),
                        Clock.fixed(now, ZoneOffset.UTC))) {
            assertThat(source.current().accessKeyId()).isEqualTo("ASIA1");
            assertThat(source.current().sessionToken()).isEqualTo("session1");
            Files.writeString(tokenFile, "agent-token-2\n");
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () -> source.current().accessKeyId().equals("ASIA2")))
                    .as("renewed in the background")
                    .isTrue();
            assertThat(authorizations.subList(0, 2))
                    .containsExactly("agent-token-1", "agent-token-2");
        } finally {
            agent.stop(0);
        }
    }
}
