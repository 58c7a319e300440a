package io.engram.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.SharedServices;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class TurnTopicIT {

    @Test
    void topicsTakeTheBrokersAppendTimeEvenWhenAnEarlierVersionCreatedThem() throws Exception {
        String bootstrap = SharedServices.kafka().bootstrapServers();
        String created = "engram.turns.stamped";
        String older = "engram.turns.older";
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(older, 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            assertThat(timestampType(admin, older)).isEqualTo("CreateTime");

            TopicBootstrap.ensure(bootstrap, List.of(created, older), 1, (short) 1);

            assertThat(timestampType(admin, created)).isEqualTo("LogAppendTime");
            assertThat(timestampType(admin, older)).isEqualTo("LogAppendTime");
        }
    }

    /**
     * The topic's timestamp type, once the broker answering knows the topic: a topic just created
     * reaches every broker's metadata a moment after the controller, so an unknown topic is asked
     * again until a deadline.
     */
    private static String timestampType(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            try {
                return admin.describeConfigs(List.of(resource))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .get(resource)
                        .get("message.timestamp.type")
                        .value();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause()
                                instanceof
                                org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || Instant.now().isAfter(deadline)) {
                    throw e;
                }
            }
        }
    }

    @Test
    void turnsProducedToTheBrokerAreConsumedAndParsedInOrder() throws Exception {
        String bootstrap = SharedServices.kafka().bootstrapServers();
        String topic = "engram.turns.it";
        assertThat(TopicBootstrap.ensure(bootstrap, List.of(topic, topic + ".dlq"), 2, (short) 1))
                .containsExactly(topic, topic + ".dlq");
        assertThat(TopicBootstrap.ensure(bootstrap, List.of(topic, topic + ".dlq"), 2, (short) 1))
                .isEmpty();

        List<ChatEvent> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(
                    new TurnEvent(
                            "e" + i,
                            "acme",
                            "default",
                            "dev",
                            "alice",
                            "s1",
                            "t" + i,
                            Role.USER,
                            Optional.of("Alice"),
                            "turn number " + i,
                            Instant.parse("2026-03-15T10:00:00Z").plusSeconds(i)));
        }
        sent.add(
                new SessionEndEvent(
                        "e5",
                        "acme",
                        "default",
                        "dev",
                        "alice",
                        "s1",
                        Instant.parse("2026-03-15T10:05:00Z")));

        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrap,
                                ProducerConfig.ACKS_CONFIG,
                                "all",
                                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                                true),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (ChatEvent event : sent) {
                producer.send(new ProducerRecord<>(topic, event.key(), EventCodec.encode(event)))
                        .get();
            }
            producer.send(new ProducerRecord<>(topic, "acme/alice/s1", "{oops".getBytes())).get();
        }

        List<ParseResult> received = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                                ConsumerConfig.GROUP_ID_CONFIG, "turn-topic-it",
                                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plusSeconds(60);
            while (received.size() < sent.size() + 1 && Instant.now().isBefore(deadline)) {
                for (ConsumerRecord<String, byte[]> record :
                        consumer.poll(Duration.ofMillis(500))) {
                    assertThat(record.key()).isEqualTo("acme/alice/s1");
                    received.add(EventCodec.parse(record.value()));
                }
            }
        }
        assertThat(received).hasSize(sent.size() + 1);
        assertThat(received.subList(0, sent.size()))
                .containsExactlyElementsOf(
                        sent.stream().map(e -> (ParseResult) new ParseResult.Accepted(e)).toList());
        assertThat(received.get(sent.size())).isInstanceOf(ParseResult.Rejected.class);
    }
}
