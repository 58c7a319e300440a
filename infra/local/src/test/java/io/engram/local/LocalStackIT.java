package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.config.EngramConfig;
import io.engram.events.ChatEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.services.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStackIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path home;

    private EngramConfig config() {
        return StackClient.testConfig(home, 0);
    }

    @Test
    void startsReportsEveryDependencyUpAndStopsWithoutLeavingProcesses() throws Exception {
        Set<Long> before = descendants();
        String key;
        try (LocalStack stack = LocalStack.start(config())) {
            assertThat(stack.url()).startsWith("http://127.0.0.1:");
            key = stack.apiKey();
            assertThat(key).isEqualTo("ek_0123456789abcdef0123456789abcdef01234567");

            HttpResponse<String> ready = get(stack.url() + "/health/ready");
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
            JsonNode checks = JSON.readTree(ready.body()).path("checks");
            for (String dependency : List.of("postgres", "kafka", "opensearch", "redis")) {
                assertThat(checks.path(dependency).path("status").asText())
                        .as(dependency)
                        .isEqualTo("up");
            }
            assertThat(get(stack.url() + "/health/live").statusCode()).isEqualTo(200);
            assertThat(stack.flink().isRunning()).isTrue();

            HttpResponse<String> missing = get(stack.url() + "/v0/nothing");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.headers().firstValue("Content-Type"))
                    .contains("application/problem+json");
            assertThat(JSON.readTree(missing.body()).path("status").asInt()).isEqualTo(404);

            assertThatThrownBy(() -> LocalStack.start(config()))
                    .hasMessageContaining("another Engram local stack is running");

            // The extraction job runs in the stack: a turn on the topic becomes a memory.
            EngramConfig c = stack.config();
            Instant ts = Instant.parse("2026-03-15T10:00:00Z");
            new StackClient(stack)
                    .publish(
                            List.<ChatEvent>of(
                                    new TurnEvent(
                                            "e1",
                                            "local",
                                            "default",
                                            "development",
                                            "alice",
                                            "s1",
                                            "t1",
                                            Role.USER,
                                            Optional.of("Alice"),
                                            "My budget for the Hawaii trip is $10,000.",
                                            ts),
                                    new SessionEndEvent(
                                            "e2",
                                            "local",
                                            "default",
                                            "development",
                                            "alice",
                                            "s1",
                                            ts.plusSeconds(5))));
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(90),
                                    () ->
                                            count(
                                                            c,
                                                            "select count(*) from memories where user_id = 'alice' and content like '%$10,000%'")
                                                    >= 1))
                    .as("memory written by the extraction job")
                    .isTrue();

            // ... and recall over HTTP with the bootstrap key finds it.
            java.util.concurrent.atomic.AtomicReference<String> last =
                    new java.util.concurrent.atomic.AtomicReference<>();
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(30),
                                    () -> {
                                        last.set(
                                                recall(
                                                        stack.url(),
                                                        key,
                                                        "alice",
                                                        "What is my budget for Hawaii?"));
                                        return last.get().startsWith("200 ")
                                                && last.get().contains("$10,000");
                                    }))
                    .as("recall through the API finds the extracted memory; last answer: %s", last)
                    .isTrue();

            // A maintenance run requested through the admin API is run by the stack's scheduler.
            HttpResponse<String> requested =
                    send("POST", stack.url() + "/v1/admin/maintenance/decay", key);
            assertThat(requested.statusCode()).as(requested.body()).isEqualTo(202);
            JsonNode run =
                    new StackClient(stack)
                            .awaitJson(
                                    "GET",
                                    "/v1/admin/maintenance/runs/"
                                            + JSON.readTree(requested.body())
                                                    .path("run_id")
                                                    .asText(),
                                    null,
                                    Duration.ofSeconds(60),
                                    r -> r.path("status").asText().equals("succeeded"));
            assertThat(run).as("maintenance run; last state: %s", run).isNotNull();
            assertThat(run.path("status").asText())
                    .as("maintenance run; last state: %s", run)
                    .isEqualTo("succeeded");
            assertThat(run.path("report").path("scanned").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(home.resolve("services.env")).exists();
        }
        assertThat(home.resolve("services.env")).doesNotExist();
        Set<Long> after = descendants();
        after.removeAll(before);
        assertThat(after).as("child processes left after stop").isEmpty();
    }

    @Test
    void dataSurvivesARestart() throws Exception {
        try (LocalStack stack = LocalStack.start(config())) {
            EngramConfig c = stack.config();
            try (Connection conn =
                    DriverManager.getConnection(
                            c.postgres().url(), c.postgres().user(), c.postgres().password())) {
                conn.createStatement()
                        .execute(
                                "insert into memories (id, tenant_id, user_id, type, content, content_hash,"
                                        + " source, valid_from, embedding_version) values"
                                        + " ('00000000-0000-0000-0000-000000000001', 'local', 'alice',"
                                        + " 'semantic', 'Alice likes tea', 'h', 'api', now(), 'v')");
            }
        }
        try (LocalStack stack = LocalStack.start(config())) {
            EngramConfig c = stack.config();
            try (Connection conn =
                            DriverManager.getConnection(
                                    c.postgres().url(),
                                    c.postgres().user(),
                                    c.postgres().password());
                    ResultSet rs =
                            conn.createStatement()
                                    .executeQuery(
                                            "select content from memories where user_id = 'alice'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("Alice likes tea");
            }
            assertThat(get(stack.url() + "/health/ready").statusCode()).isEqualTo(200);
        }
    }

    /** "status body" of a search, or the exception. */
    private static String recall(String url, String key, String user, String query) {
        try {
            HttpResponse<String> r =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(url + "/v1/memories/search"))
                                            .header("Authorization", "Bearer " + key)
                                            .header("Content-Type", "application/json")
                                            .POST(
                                                    HttpRequest.BodyPublishers.ofString(
                                                            "{\"user_id\":\""
                                                                    + user
                                                                    + "\",\"query\":\""
                                                                    + query
                                                                    + "\"}"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static int count(EngramConfig c, String sql) {
        try (Connection conn =
                        DriverManager.getConnection(
                                c.postgres().url(), c.postgres().user(), c.postgres().password());
                ResultSet rs = conn.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        } catch (Exception e) {
            return -1;
        }
    }

    private static Set<Long> descendants() {
        return ProcessHandle.current()
                .descendants()
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static HttpResponse<String> send(String method, String url, String key)
            throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + key)
                                .method(method, HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
