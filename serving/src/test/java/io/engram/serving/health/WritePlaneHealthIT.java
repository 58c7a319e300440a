package io.engram.serving.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.health.WritePlaneProgress;
import io.engram.health.WritePlaneProgress.State;
import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The write plane's health read from a real broker: turns waiting with the job's offsets moving,
 * then not moving (a job down or restarting in a loop: stalled), then caught up.
 */
class WritePlaneHealthIT {

    private static final String TOPIC = "engram.turns.health-it";
    private static final String GROUP = "engram-extraction-health-it";

    @Test
    void offsetsThatStopWhileTurnsWaitAreReportedStalledUntilTheJobCatchesUp() throws Exception {
        String bootstrap = SharedServices.kafka().bootstrapServers();
        Vertx vertx = Vertx.vertx();
        try (Admin admin =
                        Admin.create(
                                Map.<String, Object>of(
                                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
                KafkaProducer<byte[], byte[]> producer =
                        new KafkaProducer<>(
                                Map.<String, Object>of(
                                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                        bootstrap,
                                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                                        ByteArraySerializer.class,
                                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                                        ByteArraySerializer.class))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, new byte[] {1})).get();
            }
            commit(admin, 2);
            WritePlaneHealth health =
                    new WritePlaneHealth(
                            vertx,
                            admin,
                            TOPIC,
                            GROUP,
                            new WritePlaneProgress(Duration.ofSeconds(3)),
                            200);
            try {
                assertThat(
                                Await.until(
                                        Duration.ofSeconds(10),
                                        () -> health.last().state() == State.CATCHING_UP))
                        .as(health.report().encode())
                        .isTrue();
                assertThat(health.last().lag()).isEqualTo(3);
                assertThat(health.stalled()).isFalse();

                assertThat(Await.until(Duration.ofSeconds(10), health::stalled))
                        .as("no progress for 3 s with 3 turns waiting: " + health.report().encode())
                        .isTrue();
                assertThat(health.report().getString("state")).isEqualTo("stalled");

                commit(admin, 5);
                assertThat(
                                Await.until(
                                        Duration.ofSeconds(10),
                                        () -> health.last().state() == State.CAUGHT_UP))
                        .as(health.report().encode())
                        .isTrue();
                assertThat(health.report().getLong("lag_turns")).isZero();
            } finally {
                health.close();
            }
        } finally {
            vertx.close();
        }
    }

    private static void commit(Admin admin, long offset) throws Exception {
        admin.alterConsumerGroupOffsets(
                        GROUP, Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(offset)))
                .all()
                .get();
    }
}
