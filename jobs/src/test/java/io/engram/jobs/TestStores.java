package io.engram.jobs;

import io.engram.embedding.TestEmbedders;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.postgres.SchemaMigrator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.opensearch.client.opensearch.OpenSearchClient;

/** The shared test services as the jobs' tests use them. */
public final class TestStores {

    private TestStores() {}

    /** A new database with the current schema; returns its JDBC URL. */
    public static String migratedDatabase(String name) throws Exception {
        PostgresServer pg = SharedServices.postgres();
        try (Connection c = pg.connect("engram")) {
            c.createStatement().execute("create database " + name);
        }
        String url = pg.jdbcUrl(name);
        SchemaMigrator.migrate(url, pg.user(), pg.password());
        return url;
    }

    public static OpenSearchClient openSearch() {
        return OpenSearchClients.create(SharedServices.openSearch().url(), Duration.ofSeconds(30));
    }

    /** Where tests keep the embedding model, extracted once per machine. */
    public static String modelDir() {
        return TestEmbedders.MODEL_DIR.toString();
    }

    /** Sends {@code events} to {@code topic} on the shared broker, keyed as the API keys them. */
    public static void produce(String topic, List<ChatEvent> events) throws Exception {
        produce(topic, events.stream().map(e -> Map.entry(e.key(), EventCodec.encode(e))).toList());
    }

    /** Sends records as given (key, value) to {@code topic} on the shared broker, in order. */
    public static void produce(String topic, Iterable<Map.Entry<String, byte[]>> records)
            throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                SharedServices.kafka().bootstrapServers()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (Map.Entry<String, byte[]> r : records) {
                producer.send(new ProducerRecord<>(topic, r.getKey(), r.getValue())).get();
            }
        }
    }

    /**
     * The dead letters on {@code topic} from its start, as text: until {@code atLeast} came or 30 s
     * passed, then whatever else is there.
     */
    public static List<String> deadLetters(String topic, String group, int atLeast) {
        List<String> letters = new java.util.ArrayList<>();
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                        Map.of(
                                org.apache.kafka.clients.consumer.ConsumerConfig
                                        .BOOTSTRAP_SERVERS_CONFIG,
                                SharedServices.kafka().bootstrapServers(),
                                org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG,
                                group,
                                org.apache.kafka.clients.consumer.ConsumerConfig
                                        .AUTO_OFFSET_RESET_CONFIG,
                                "earliest"),
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
            do {
                consumer.poll(Duration.ofMillis(500))
                        .forEach(
                                r ->
                                        letters.add(
                                                new String(
                                                        r.value(),
                                                        java.nio.charset.StandardCharsets.UTF_8)));
            } while (letters.size() < atLeast && java.time.Instant.now().isBefore(deadline));
            consumer.poll(Duration.ofMillis(500))
                    .forEach(
                            r ->
                                    letters.add(
                                            new String(
                                                    r.value(),
                                                    java.nio.charset.StandardCharsets.UTF_8)));
        }
        return letters;
    }

    /**
     * The first column of {@code sql}'s first row on the database at {@code url}; -1 on failure.
     */
    public static int count(String url, String sql) {
        PostgresServer pg = SharedServices.postgres();
        try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        } catch (Exception e) {
            return -1;
        }
    }

    /** The first column of every row of {@code sql} on the database at {@code url}, as text. */
    public static List<String> rows(String url, String sql) {
        PostgresServer pg = SharedServices.postgres();
        List<String> out = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password());
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (Exception e) {
            out.add(e.toString());
        }
        return out;
    }

    /** Whether a checkpoint has completed under {@code checkpoints} (its metadata is written). */
    public static boolean checkpointed(Path checkpoints) {
        if (!Files.isDirectory(checkpoints)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(checkpoints)) {
            return files.anyMatch(f -> f.getFileName().toString().equals("_metadata"));
        } catch (Exception e) {
            return false;
        }
    }
}
