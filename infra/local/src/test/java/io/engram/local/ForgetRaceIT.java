package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.services.Await;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turns accepted a moment before a forget of their user, on the whole local stack: once the
 * extraction job has read past them, nothing of those turns is a memory in PostgreSQL or a document
 * in the index, whatever the delay between the turns and the forget.
 */
class ForgetRaceIT {

    @TempDir Path home;

    @Test
    void turnsAcceptedJustBeforeAForgetNeverBecomeOrStayMemories() throws Exception {
        Map<String, String> env = LocalStack.freePortSettings(home);
        env.put("ENGRAM_LOCAL_OPENSEARCH_HEAP", "512m");
        env.put("ENGRAM_LOCAL_KAFKA_HEAP", "384m");
        env.put("ENGRAM_BOOTSTRAP_KEY", "ek_0123456789abcdef0123456789abcdef01234567");
        // Checkpoints (and with them the job's committed offsets) every second.
        env.put("ENGRAM_FLINK_CHECKPOINT_INTERVAL_MS", "1000");
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        List<Integer> delaysMs = List.of(0, 50, 100, 200, 350, 700);
        try (LocalStack stack = LocalStack.start(config)) {
            EngramConfig c = stack.config();
            // Each user talked before: the job holds state for them (as for any active user).
            for (int i = 0; i < delaysMs.size(); i++) {
                HttpResponse<String> earlier =
                        call(
                                stack,
                                "POST",
                                "/v1/turns",
                                "{\"user_id\":\"racer"
                                        + i
                                        + "\",\"session_id\":\"s0\",\"end_session\":true,\"turns\":["
                                        + "{\"turn_id\":\"t0\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"I have a cat named Tom.\"}]}");
                assertThat(earlier.statusCode()).as(earlier.body()).isEqualTo(202);
            }
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(90),
                                    () ->
                                            count(
                                                            c,
                                                            "select count(distinct user_id) from memories"
                                                                    + " where user_id like 'racer%'")
                                                    == delaysMs.size()))
                    .as("the earlier sessions are memories")
                    .isTrue();
            for (int i = 0; i < delaysMs.size(); i++) {
                String user = "racer" + i;
                HttpResponse<String> turns =
                        call(
                                stack,
                                "POST",
                                "/v1/turns",
                                "{\"user_id\":\""
                                        + user
                                        + "\",\"session_id\":\"s1\",\"end_session\":true,\"turns\":["
                                        + "{\"turn_id\":\"t1\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"My budget for the Hawaii trip is $10,000.\"},"
                                        + "{\"turn_id\":\"t2\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"I live in Leeds with my sister Ana.\"}]}");
                assertThat(turns.statusCode()).as(turns.body()).isEqualTo(202);
                Thread.sleep(delaysMs.get(i));
                HttpResponse<String> forget =
                        call(stack, "DELETE", "/v1/memories?user_id=" + user, null);
                assertThat(forget.statusCode()).as(forget.body()).isEqualTo(200);
            }
            assertThat(Await.until(Duration.ofSeconds(120), () -> drained(c)))
                    .as("the extraction job has read and stored everything on the topic")
                    .isTrue();
            OpenSearchClient index =
                    OpenSearchClient.forConfig(c.openSearch(), Duration.ofSeconds(10));
            index.send("POST", "/" + c.memoryIndexAlias() + "/_refresh", null);
            for (int i = 0; i < delaysMs.size(); i++) {
                String user = "racer" + i;
                assertThat(count(c, "select count(*) from memories where user_id = '" + user + "'"))
                        .as(
                                "memories of %s, forgotten %d ms after its turns",
                                user, delaysMs.get(i))
                        .isZero();
                MemoryQuery q =
                        MemoryQuery.forScope(
                                        new io.engram.memory.Scope(
                                                "local", "default", "development", user))
                                .includeHistory(true);
                long documents =
                        index.send(
                                        "POST",
                                        "/"
                                                + c.memoryIndexAlias()
                                                + "/_count?routing="
                                                + q.routing(),
                                        q.all())
                                .body()
                                .path("count")
                                .asLong();
                assertThat(documents)
                        .as("index documents of %s, forgotten %d ms after", user, delaysMs.get(i))
                        .isZero();
            }
        }
    }

    /** Whether the job's committed offsets have reached the end of every turns partition. */
    private static boolean drained(EngramConfig c) {
        Map<String, Object> settings = new java.util.HashMap<>(c.kafka().clientProperties());
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        try (Admin admin = Admin.create(settings)) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets("engram-extraction")
                            .partitionsToOffsetAndMetadata()
                            .get();
            List<TopicPartition> partitions =
                    admin
                            .describeTopics(List.of(c.kafka().turnsTopic()))
                            .allTopicNames()
                            .get()
                            .get(c.kafka().turnsTopic())
                            .partitions()
                            .stream()
                            .map(p -> new TopicPartition(c.kafka().turnsTopic(), p.partition()))
                            .toList();
            var ends =
                    admin.listOffsets(
                                    partitions.stream()
                                            .collect(
                                                    Collectors.toMap(
                                                            p -> p, p -> OffsetSpec.latest())))
                            .all()
                            .get();
            for (TopicPartition p : partitions) {
                long end = ends.get(p).offset();
                OffsetAndMetadata at = committed.get(p);
                if (end > 0 && (at == null || at.offset() < end)) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static HttpResponse<String> call(
            LocalStack stack, String method, String path, String body) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(stack.url() + path))
                                .header("Authorization", "Bearer " + stack.apiKey())
                                .header("Content-Type", "application/json")
                                .method(
                                        method,
                                        body == null
                                                ? HttpRequest.BodyPublishers.noBody()
                                                : HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
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
}
