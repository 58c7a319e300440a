package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.config.EngramConfig;
import io.engram.embedding.TestEmbedders;
import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TopicBootstrap;
import io.engram.events.TurnEvent;
import io.engram.jobs.TestStores;
import io.engram.services.KafkaBroker;
import io.engram.services.PostgresServer;
import io.engram.services.SelfSignedCertificate;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.OpenSearchClients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The extraction job against a broker that speaks TLS and wants a SCRAM login on the address it is
 * given: the source reads the turns and the dead-letter sink writes rejects, both with the settings
 * of {@code kafka.security_protocol=SASL_SSL}, {@code kafka.ssl_truststore} and the login; the
 * broker's TLS-only listener takes {@code SSL} clients without one.
 */
class ExtractionTlsIT {

    private static final String TOPIC = "engram.turns.tls";
    private static final String DLQ = "engram.turns.tls.dlq";
    private static final String ALIAS = "mem-job-tls";

    private static KafkaBroker broker;
    private static EngramConfig.Kafka kafka;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("engram-kafka-tls");
        SelfSignedCertificate tls = SelfSignedCertificate.create(dir.resolve("tls"), "broker");
        broker = KafkaBroker.startWithTls(dir.resolve("kafka"), "256m", tls);
        kafka =
                new EngramConfig.Kafka(
                        broker.saslBootstrapServers(),
                        TOPIC,
                        DLQ,
                        2,
                        1,
                        "SASL_SSL",
                        tls.certificate().toString(),
                        "SCRAM-SHA-512",
                        KafkaBroker.SCRAM_USER,
                        KafkaBroker.SCRAM_PASSWORD);
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void theTlsOnlyListenerNeedsNoLogin() {
        EngramConfig.Kafka tlsOnly =
                new EngramConfig.Kafka(
                        broker.tlsBootstrapServers(),
                        TOPIC,
                        DLQ,
                        2,
                        1,
                        "SSL",
                        kafka.sslTruststore(),
                        "SCRAM-SHA-512",
                        "",
                        "");
        assertThat(
                        TopicBootstrap.ensure(
                                tlsOnly.clientProperties(), List.of("tls.only"), 1, (short) 1))
                .containsExactly("tls.only");
    }

    @Test
    void aClientWithAWrongPasswordIsRefused() {
        EngramConfig.Kafka wrong =
                new EngramConfig.Kafka(
                        kafka.bootstrapServers(),
                        TOPIC,
                        DLQ,
                        2,
                        1,
                        "SASL_SSL",
                        kafka.sslTruststore(),
                        "SCRAM-SHA-512",
                        KafkaBroker.SCRAM_USER,
                        "not-" + KafkaBroker.SCRAM_PASSWORD);
        assertThatThrownBy(
                        () ->
                                TopicBootstrap.ensure(
                                        wrong.clientProperties(), List.of(TOPIC), 2, (short) 1))
                .hasStackTraceContaining("Authentication failed");
    }

    @Test
    void readsTurnsAndWritesRejectsOverTlsWithALogin() throws Exception {
        assertThat(
                        TopicBootstrap.ensure(
                                kafka.clientProperties(), List.of(TOPIC, DLQ), 2, (short) 1))
                .containsExactlyInAnyOrder(TOPIC, DLQ);
        Instant t = Instant.parse("2026-05-01T09:00:00Z");
        List<ChatEvent> events =
                List.of(
                        new TurnEvent(
                                "e1",
                                "acme",
                                "default",
                                "dev",
                                "tess",
                                "s1",
                                "t1",
                                Role.USER,
                                Optional.of("Tess"),
                                "My budget for the Hawaii trip is $8,000.",
                                t),
                        new SessionEndEvent(
                                "e2", "acme", "default", "dev", "tess", "s1", t.plusSeconds(30)));
        Map<String, Object> producerSettings = new HashMap<>(kafka.clientProperties());
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        producerSettings, new StringSerializer(), new ByteArraySerializer())) {
            for (ChatEvent e : events) {
                producer.send(new ProducerRecord<>(TOPIC, e.key(), EventCodec.encode(e))).get();
            }
            producer.send(
                            new ProducerRecord<>(
                                    TOPIC,
                                    "acme/tess/s1",
                                    "{not json".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }

        PostgresServer pg = SharedServices.postgres();
        String jdbc = TestStores.migratedDatabase("job_tls");
        IndexBootstrap.ensure(
                OpenSearchClients.create(SharedServices.openSearch().url(), Duration.ofSeconds(30)),
                ALIAS,
                1,
                0);
        ExtractionSettings settings =
                TestSettings.of(
                        jdbc,
                        pg.user(),
                        pg.password(),
                        SharedServices.openSearch().url(),
                        ALIAS,
                        SharedServices.redis().url(),
                        kafka.bootstrapServers(),
                        kafka.security(),
                        TOPIC,
                        DLQ,
                        TestEmbedders.MODEL_DIR.toString(),
                        500);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ExtractionJob.forKafka(settings, true, OffsetsInitializer.earliest()).build(env);
        env.execute("extraction-tls-it");

        try (Connection c = DriverManager.getConnection(jdbc, pg.user(), pg.password());
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select count(*) from memories where user_id = 'tess'"
                                                + " and content like '%$8,000%'")) {
            rs.next();
            assertThat(rs.getInt(1)).isPositive();
        }
        assertThat(deadLetters())
                .singleElement()
                .satisfies(l -> assertThat(l).contains("{not json"));
    }

    private static List<String> deadLetters() {
        Map<String, Object> settings = new HashMap<>(kafka.clientProperties());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "tls-it");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> letters = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(
                        settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(DLQ));
            Instant deadline = Instant.now().plusSeconds(30);
            while (letters.isEmpty() && Instant.now().isBefore(deadline)) {
                consumer.poll(Duration.ofMillis(500))
                        .forEach(r -> letters.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
        }
        return letters;
    }
}
