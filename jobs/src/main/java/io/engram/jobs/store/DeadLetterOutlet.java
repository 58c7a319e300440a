package io.engram.jobs.store;

import java.io.Serializable;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Where a sink sends what it cannot write, being the last stage (it has no side output). The
 * production one is the dead-letter topic; a letter is acknowledged before the sink goes on, so it
 * is not lost if the job fails right after.
 */
public interface DeadLetterOutlet extends Serializable {

    Open open();

    /** An opened outlet of one sink writer. */
    interface Open extends AutoCloseable {
        void send(byte[] letter) throws Exception;

        @Override
        default void close() {}
    }

    /** The dead-letter topic. */
    static DeadLetterOutlet kafka(String bootstrapServers, Properties client, String topic) {
        return () -> {
            Properties p = new Properties();
            p.putAll(client);
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            return new Open() {
                @Override
                public void send(byte[] letter) throws ExecutionException, InterruptedException {
                    producer.send(new ProducerRecord<>(topic, letter)).get();
                }

                @Override
                public void close() {
                    producer.close();
                }
            };
        };
    }
}
