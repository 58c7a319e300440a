package io.engram.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.config.EngramConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** What the whole-stack tests do through the API and read from the stores. */
final class StackClient {

    static final ObjectMapper JSON = new ObjectMapper();

    private final LocalStack stack;
    private final HttpClient http = HttpClient.newHttpClient();

    /**
     * A local stack's settings for tests: free ports, small heaps, a known bootstrap key and, with
     * {@code checkpointMs} above 0, checkpoints (and with them the job's committed offsets) that
     * often.
     */
    static io.engram.config.EngramConfig testConfig(java.nio.file.Path home, long checkpointMs) {
        return testConfig(home, checkpointMs, Map.of());
    }

    /** As above, with {@code settings} ({@code ENGRAM_*} variables) on top. */
    static io.engram.config.EngramConfig testConfig(
            java.nio.file.Path home, long checkpointMs, Map<String, String> settings) {
        Map<String, String> env = LocalStack.freePortSettings(home);
        env.putAll(settings);
        env.put("ENGRAM_LOCAL_OPENSEARCH_HEAP", "512m");
        env.put("ENGRAM_LOCAL_KAFKA_HEAP", "384m");
        env.put("ENGRAM_BOOTSTRAP_KEY", "ek_0123456789abcdef0123456789abcdef01234567");
        if (checkpointMs > 0) {
            env.put("ENGRAM_FLINK_CHECKPOINT_INTERVAL_MS", String.valueOf(checkpointMs));
        }
        return io.engram.config.ConfigLoader.load(java.util.Optional.empty(), env);
    }

    StackClient(LocalStack stack) {
        this.stack = stack;
    }

    HttpResponse<String> call(String method, String path, String body) throws Exception {
        return http.send(
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

    /**
     * Calls {@code path} until its JSON answer satisfies {@code done} or {@code timeout} passes;
     * the last answer (null when none came), for the caller to assert on and to show.
     */
    JsonNode awaitJson(
            String method,
            String path,
            String body,
            java.time.Duration timeout,
            java.util.function.Predicate<JsonNode> done) {
        java.util.concurrent.atomic.AtomicReference<JsonNode> last =
                new java.util.concurrent.atomic.AtomicReference<>();
        io.engram.services.Await.until(
                timeout,
                () -> {
                    try {
                        last.set(json(method, path, body));
                        return done.test(last.get());
                    } catch (Exception e) {
                        return false;
                    }
                });
        return last.get();
    }

    /** Puts {@code events} on the turns topic, each acknowledged before the next. */
    void publish(List<io.engram.events.ChatEvent> events) throws Exception {
        EngramConfig c = stack.config();
        try (org.apache.kafka.clients.producer.KafkaProducer<String, byte[]> producer =
                new org.apache.kafka.clients.producer.KafkaProducer<>(
                        Map.of(
                                org.apache.kafka.clients.producer.ProducerConfig
                                        .BOOTSTRAP_SERVERS_CONFIG,
                                c.kafka().bootstrapServers()),
                        new org.apache.kafka.common.serialization.StringSerializer(),
                        new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (io.engram.events.ChatEvent e : events) {
                producer.send(
                                new org.apache.kafka.clients.producer.ProducerRecord<>(
                                        c.kafka().turnsTopic(),
                                        e.key(),
                                        io.engram.events.EventCodec.encode(e)))
                        .get();
            }
        }
    }

    JsonNode json(String method, String path, String body) throws Exception {
        HttpResponse<String> r = call(method, path, body);
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(
                    method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** Whether the job's committed offsets have reached the end of every turns partition. */
    boolean drained() {
        EngramConfig c = stack.config();
        Map<String, Object> settings = new HashMap<>(c.kafka().clientProperties());
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        String topic = c.kafka().turnsTopic();
        try (Admin admin = Admin.create(settings)) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets("engram-extraction")
                            .partitionsToOffsetAndMetadata()
                            .get();
            List<TopicPartition> partitions =
                    admin
                            .describeTopics(List.of(topic))
                            .allTopicNames()
                            .get()
                            .get(topic)
                            .partitions()
                            .stream()
                            .map(p -> new TopicPartition(topic, p.partition()))
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

    /** The first column of the first row of {@code sql}; -1 when it fails. */
    long count(String sql) {
        EngramConfig c = stack.config();
        try (Connection conn =
                        DriverManager.getConnection(
                                c.postgres().url(), c.postgres().user(), c.postgres().password());
                ResultSet rs = conn.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            return -1;
        }
    }

    /** The rows of {@code sql}, each column as text, joined by " | ". */
    List<String> rows(String sql) {
        EngramConfig c = stack.config();
        List<String> out = new java.util.ArrayList<>();
        try (Connection conn =
                        DriverManager.getConnection(
                                c.postgres().url(), c.postgres().user(), c.postgres().password());
                ResultSet rs = conn.createStatement().executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? " | " : "").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        } catch (Exception e) {
            out.add(e.toString());
        }
        return out;
    }
}
