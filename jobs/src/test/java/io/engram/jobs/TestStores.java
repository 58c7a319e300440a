package io.engram.jobs;

import io.engram.embedding.TestEmbedders;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.OpenSearchClient;
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
        return new OpenSearchClient(SharedServices.openSearch().url(), Duration.ofSeconds(30));
    }

    /** Where tests keep the embedding model, extracted once per machine. */
    public static String modelDir() {
        return TestEmbedders.MODEL_DIR.toString();
    }

    /** Sends {@code events} to {@code topic} on the shared broker, keyed as the API keys them. */
    public static void produce(String topic, List<ChatEvent> events) throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                SharedServices.kafka().bootstrapServers()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (ChatEvent e : events) {
                producer.send(new ProducerRecord<>(topic, e.key(), EventCodec.encode(e))).get();
            }
        }
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
