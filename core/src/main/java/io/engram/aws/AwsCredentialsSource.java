package io.engram.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a process gets its AWS credentials, as AWS's own SDKs look for them: an access key in the
 * environment ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code
 * AWS_SESSION_TOKEN}), or a container credentials endpoint: EKS Pod Identity's ({@code
 * AWS_CONTAINER_CREDENTIALS_FULL_URI} with the token in {@code
 * AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE}) or ECS's ({@code
 * AWS_CONTAINER_CREDENTIALS_RELATIVE_URI}). Temporary credentials are fetched again in the
 * background before they expire, so {@link #current()} never waits for the network after the first
 * fetch, which the constructor makes.
 */
public final class AwsCredentialsSource implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AwsCredentialsSource.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Temporary credentials are replaced this long before they expire. */
    static final Duration REFRESH_AHEAD = Duration.ofMinutes(5);

    static final Duration RETRY = Duration.ofSeconds(10);

    private static AwsCredentialsSource shared;

    private final Fetch fetch;
    private final Clock clock;
    private final ScheduledExecutorService refresher;
    private volatile AwsCredentials current;

    /** How credentials are got: once for a static key, again and again from an endpoint. */
    interface Fetch {
        AwsCredentials get() throws IOException, InterruptedException;
    }

    AwsCredentialsSource(Fetch fetch, Clock clock) {
        this.fetch = fetch;
        this.clock = clock;
        try {
            this.current = fetch.get();
        } catch (IOException e) {
            throw new IllegalStateException("cannot get AWS credentials: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted getting AWS credentials", e);
        }
        if (current.expiration().equals(Instant.MAX)) {
            this.refresher = null;
        } else {
            this.refresher =
                    Executors.newSingleThreadScheduledExecutor(
                            r -> {
                                Thread t = new Thread(r, "aws-credentials");
                                t.setDaemon(true);
                                return t;
                            });
            schedule(untilRefresh());
        }
    }

    /** The process's source, made from its environment on first use. */
    public static synchronized AwsCredentialsSource shared() {
        if (shared == null) {
            shared = fromEnvironment(System.getenv(), Clock.systemUTC());
        }
        return shared;
    }

    /** The source the environment names; fails naming what to set when it names none. */
    public static AwsCredentialsSource fromEnvironment(Map<String, String> env, Clock clock) {
        String key = env.getOrDefault("AWS_ACCESS_KEY_ID", "");
        String secret = env.getOrDefault("AWS_SECRET_ACCESS_KEY", "");
        if (!key.isEmpty() && !secret.isEmpty()) {
            AwsCredentials fixed =
                    new AwsCredentials(
                            key, secret, env.getOrDefault("AWS_SESSION_TOKEN", ""), Instant.MAX);
            return new AwsCredentialsSource(() -> fixed, clock);
        }
        String full = env.getOrDefault("AWS_CONTAINER_CREDENTIALS_FULL_URI", "");
        String relative = env.getOrDefault("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "");
        if (full.isEmpty() && relative.isEmpty()) {
            throw new IllegalStateException(
                    "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run"
                            + " where EKS Pod Identity or ECS sets AWS_CONTAINER_CREDENTIALS_FULL_URI"
                            + " or AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
        }
        URI endpoint = URI.create(full.isEmpty() ? "http://169.254.170.2" + relative : full);
        String tokenFile = env.getOrDefault("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "");
        String token = env.getOrDefault("AWS_CONTAINER_AUTHORIZATION_TOKEN", "");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        return new AwsCredentialsSource(
                () -> fromEndpoint(http, endpoint, tokenFile, token), clock);
    }

    /** The credentials to sign with now. */
    public AwsCredentials current() {
        return current;
    }

    private static AwsCredentials fromEndpoint(
            HttpClient http, URI endpoint, String tokenFile, String token)
            throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(5)).GET();
        // The token file is read each time: the agent rotates it.
        String authorization =
                tokenFile.isEmpty() ? token : Files.readString(Path.of(tokenFile)).trim();
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response =
                http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "the credentials endpoint " + endpoint + " answered " + response.statusCode());
        }
        JsonNode body = JSON.readTree(response.body());
        String key = body.path("AccessKeyId").asText("");
        String secret = body.path("SecretAccessKey").asText("");
        if (key.isEmpty() || secret.isEmpty()) {
            throw new IOException("the credentials endpoint " + endpoint + " gave no access key");
        }
        String expiration = body.path("Expiration").asText("");
        return new AwsCredentials(
                key,
                secret,
                body.path("Token").asText(""),
                expiration.isEmpty() ? Instant.MAX : Instant.parse(expiration));
    }

    private Duration untilRefresh() {
        Duration left = Duration.between(clock.instant(), current.expiration());
        Duration wait = left.minus(REFRESH_AHEAD);
        return wait.isNegative() ? Duration.ZERO : wait;
    }

    private void schedule(Duration delay) {
        refresher.schedule(this::refresh, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            current = fetch.get();
            schedule(untilRefresh());
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "could not renew the AWS credentials ({}); the current ones expire at {},"
                            + " retrying in {} s",
                    e.getMessage(),
                    current.expiration(),
                    RETRY.toSeconds());
            schedule(RETRY);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }
}
