package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.auth.ApiKeys;
import io.engram.embedding.TestEmbedders;
import io.engram.services.Await;
import io.engram.services.KafkaBroker;
import io.engram.services.PostgresServer;
import io.engram.services.RedisServer;
import io.engram.services.SelfSignedCertificate;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * The packaged serving tier ({@code java -jar engram-serving-*.jar}) as a deployment runs it: its
 * own process against services that run elsewhere, preparing empty stores, serving, and stopping on
 * SIGTERM.
 */
class ServingMainIT {

    private static final Path JAR = Path.of(System.getProperty("engram.serving.jar", "missing"));
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+)");

    private static final HttpClient http = HttpClient.newHttpClient();

    /** A running {@code java -jar}, its output lines collected as they come. */
    private record Run(Process process, List<String> lines) {
        static Run start(Map<String, String> env, String... args) throws IOException {
            assertThat(JAR).as("the packaged serving jar (mvn package)").exists();
            List<String> command = new java.util.ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("-jar");
            command.add(JAR.toString());
            command.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("ENGRAM_"));
            pb.environment().putAll(env);
            Process p = pb.start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader =
                    new Thread(
                            () -> {
                                try (BufferedReader r =
                                        new BufferedReader(
                                                new InputStreamReader(
                                                        p.getInputStream(),
                                                        StandardCharsets.UTF_8))) {
                                    String line;
                                    while ((line = r.readLine()) != null) {
                                        lines.add(line);
                                    }
                                } catch (IOException e) {
                                    lines.add("(output lost: " + e + ")");
                                }
                            },
                            "serving-main-output");
            reader.setDaemon(true);
            reader.start();
            return new Run(p, lines);
        }

        int exit() throws InterruptedException {
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(String.join("\n", lines)).isTrue();
            return process.exitValue();
        }

        String output() {
            return String.join("\n", lines);
        }
    }

    @Test
    void refusesToStartWithoutTheServicesNamed() throws Exception {
        Run run =
                Run.start(
                        Map.of("ENGRAM_HOME", Files.createTempDirectory("engram-main").toString()));
        assertThat(run.exit()).as(run.output()).isEqualTo(2);
        assertThat(run.output())
                .contains("not set: postgres.url (ENGRAM_POSTGRES_URL)")
                .contains("kafka.bootstrap_servers (ENGRAM_KAFKA_BOOTSTRAP_SERVERS)")
                .contains("opensearch.url (ENGRAM_OPENSEARCH_URL)")
                .contains("redis.url (ENGRAM_REDIS_URL)");
    }

    @Test
    void preparesEmptyStoresServesWithTheBootstrapKeyAndStopsCleanlyOnSigterm() throws Exception {
        PostgresServer pg = SharedServices.postgres();
        String key = ApiKeys.generate();
        Map<String, String> env = environment("serving_main", key);
        env.put("ENGRAM_KAFKA_BOOTSTRAP_SERVERS", SharedServices.kafka().bootstrapServers());

        Run serve = Run.start(env, "serve", "--prepare");
        try {
            String base = awaitListening(serve);
            assertThat(serve.output())
                    .contains("storage ready:")
                    .contains("index mem-serving-main");

            assertThat(call("GET", base + "/health/ready", null, null).statusCode()).isEqualTo(200);
            storesAndFindsAMemory(base, key);
        } finally {
            // SIGTERM, as Kubernetes stops a pod (Process.destroy would also close its output)
            serve.process().toHandle().destroy();
        }
        // a JVM that ends on SIGTERM exits 128 + 15, after its shutdown hook ran to the end
        assertThat(serve.exit()).as(serve.output()).isEqualTo(143);
        assertThat(serve.output()).contains("engram-serving: stopping…", "engram-serving: stopped");
        try (Connection c = pg.connect("serving_main");
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select tenant_id, scopes::text from api_keys where name = 'bootstrap'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(ServingMain.BOOTSTRAP_TENANT);
            assertThat(rs.getString(2)).isEqualTo("{read,write,admin,operator}");
        }

        Run again = Run.start(env, "prepare");
        assertThat(again.exit()).as(again.output()).isZero();
        assertThat(again.output())
                .contains("storage ready: 0 migration(s) applied, topics created []")
                .contains("(existing)");
    }

    /** The settings of terraform/'s deployment: TLS everywhere, a Kafka login, a Redis token. */
    @Test
    void speaksTlsAndLogsInToKafkaAndRedis() throws Exception {
        Path dir = Files.createTempDirectory("engram-main-tls");
        SelfSignedCertificate tls = SelfSignedCertificate.create(dir.resolve("tls"), "services");
        String redisToken = "redis-auth-token-0123456789";
        try (KafkaBroker broker = KafkaBroker.startWithTls(dir.resolve("kafka"), "256m", tls);
                RedisServer redis =
                        RedisServer.startWithTls(dir.resolve("redis"), tls, redisToken)) {
            String key = ApiKeys.generate();
            Map<String, String> env = environment("serving_main_tls", key);
            env.put("ENGRAM_KAFKA_BOOTSTRAP_SERVERS", broker.saslBootstrapServers());
            env.put("ENGRAM_KAFKA_SECURITY_PROTOCOL", "SASL_SSL");
            env.put("ENGRAM_KAFKA_SASL_USERNAME", KafkaBroker.SCRAM_USER);
            env.put("ENGRAM_KAFKA_SASL_PASSWORD", KafkaBroker.SCRAM_PASSWORD);
            env.put("ENGRAM_KAFKA_SSL_TRUSTSTORE", tls.certificate().toString());
            env.put("ENGRAM_REDIS_URL", redis.tlsUrl());
            env.put("ENGRAM_REDIS_TLS_TRUSTSTORE", tls.certificate().toString());
            env.put("ENGRAM_REDIS_PASSWORD", redisToken);

            Run serve = Run.start(env, "serve", "--prepare");
            try {
                String base = awaitListening(serve);
                assertThat(serve.output())
                        .contains(
                                "topics created [turns.serving_main_tls, turns.serving_main_tls.dlq]");
                HttpResponse<String> accepted =
                        call(
                                "POST",
                                base + "/v1/turns",
                                key,
                                new JsonObject()
                                        .put("user_id", "zoe")
                                        .put("session_id", "s1")
                                        .put(
                                                "turns",
                                                new JsonArray()
                                                        .add(
                                                                new JsonObject()
                                                                        .put("turn_id", "t1")
                                                                        .put("role", "user")
                                                                        .put(
                                                                                "content",
                                                                                "Zoe moved to Bristol."))));
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
                assertThat(call("GET", base + "/health/ready", null, null).body())
                        .contains("\"kafka\":{\"status\":\"up\"")
                        .contains("\"redis\":{\"status\":\"up\"");
                assertThat(serve.output())
                        .doesNotContain(KafkaBroker.SCRAM_PASSWORD)
                        .doesNotContain(redisToken);
            } finally {
                serve.process().toHandle().destroy();
            }
            assertThat(serve.exit()).as(serve.output()).isEqualTo(143);
        }
    }

    /**
     * The settings of a deployment on AWS's OpenSearch Service with IAM access: every request to
     * OpenSearch, from preparing the index to recall, carries a signature the service accepts.
     */
    @Test
    void signsEveryOpenSearchRequestWithTheProcessesAwsCredentials() throws Exception {
        AwsSessionCredentials key =
                AwsSessionCredentials.create(
                        "ASIAENGRAMTEST", "engram-test-secret", "engram-test-session");
        try (SigV4CheckingProxy domain =
                SigV4CheckingProxy.start(
                        SharedServices.openSearch().url(), key, "eu-west-1", "es")) {
            String apiKey = ApiKeys.generate();
            Map<String, String> env = environment("serving_main_sigv4", apiKey);
            env.put("ENGRAM_KAFKA_BOOTSTRAP_SERVERS", SharedServices.kafka().bootstrapServers());
            env.put("ENGRAM_OPENSEARCH_URL", domain.url());
            env.put("ENGRAM_OPENSEARCH_AUTH", "aws-sigv4");
            env.put("ENGRAM_OPENSEARCH_AWS_REGION", "eu-west-1");

            // a process with another key is refused, and says so
            env.putAll(
                    Map.of(
                            "AWS_ACCESS_KEY_ID", key.accessKeyId(),
                            "AWS_SECRET_ACCESS_KEY", "not-" + key.secretAccessKey(),
                            "AWS_SESSION_TOKEN", key.sessionToken()));
            Run refused = Run.start(env, "prepare");
            assertThat(refused.exit()).as(refused.output()).isNotZero();
            assertThat(refused.output()).contains("403");
            assertThat(domain.refused()).isPositive();

            env.put("AWS_SECRET_ACCESS_KEY", key.secretAccessKey());
            Run serve = Run.start(env, "serve", "--prepare");
            try {
                String base = awaitListening(serve);
                storesAndFindsAMemory(base, apiKey);
            } finally {
                serve.process().toHandle().destroy();
            }
            assertThat(serve.exit()).as(serve.output()).isEqualTo(143);
            int refusedBefore = domain.refused();
            assertThat(domain.verified()).as("index, write, search").isGreaterThanOrEqualTo(3);
            assertThat(domain.refused()).isEqualTo(refusedBefore);
        }
    }

    /** Stores a memory through the API and finds it by a question, nothing degraded. */
    private static void storesAndFindsAMemory(String base, String key) throws Exception {
        HttpResponse<String> stored =
                call(
                        "POST",
                        base + "/v1/memories",
                        key,
                        new JsonObject()
                                .put("user_id", "zoe")
                                .put("content", "Zoe keeps bees on her allotment in Leeds."));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
        HttpResponse<String> found =
                call(
                        "POST",
                        base + "/v1/memories/search",
                        key,
                        new JsonObject()
                                .put("user_id", "zoe")
                                .put("query", "What does Zoe keep on her allotment?"));
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        JsonObject answer = new JsonObject(found.body());
        assertThat(answer.getJsonArray("degraded")).isEmpty();
        JsonArray memories = answer.getJsonArray("memories");
        assertThat(memories.getJsonObject(0).getString("content")).contains("bees");
    }

    /** Settings of a serving process on the shared services, with a database of its own. */
    private static Map<String, String> environment(String database, String bootstrapKey)
            throws Exception {
        PostgresServer pg = SharedServices.postgres();
        try (Connection c = pg.connect("engram")) {
            c.createStatement().execute("create database " + database);
        }
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", Files.createTempDirectory("engram-main").toString());
        env.put("ENGRAM_PORT", "0");
        env.put("ENGRAM_EMBEDDING_MODEL_DIR", TestEmbedders.MODEL_DIR.toString());
        env.put("ENGRAM_POSTGRES_URL", pg.jdbcUrl(database));
        env.put("ENGRAM_POSTGRES_USER", pg.user());
        env.put("ENGRAM_POSTGRES_PASSWORD", pg.password());
        env.put("ENGRAM_KAFKA_TURNS_TOPIC", "turns." + database);
        env.put("ENGRAM_KAFKA_DLQ_TOPIC", "turns." + database + ".dlq");
        env.put("ENGRAM_OPENSEARCH_URL", SharedServices.openSearch().url());
        env.put("ENGRAM_OPENSEARCH_INDEX_PREFIX", "mem-" + database.replace('_', '-'));
        env.put("ENGRAM_REDIS_URL", SharedServices.redis().url());
        env.put("ENGRAM_BOOTSTRAP_KEY", bootstrapKey);
        return env;
    }

    /** The base URL once the process says it listens. */
    private static String awaitListening(Run serve) {
        Await.until(
                Duration.ofSeconds(90),
                () -> !serve.process().isAlive() || LISTENING.matcher(serve.output()).find());
        Matcher m = LISTENING.matcher(serve.output());
        assertThat(m.find()).as(serve.output()).isTrue();
        return "http://127.0.0.1:" + m.group(1);
    }

    private static HttpResponse<String> call(String method, String url, String key, JsonObject body)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body.encode()));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
