package io.engram.benchmarks.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * How far the extraction job is: its committed offsets are written only after the stores, so
 * "committed reached the end offsets taken at time T" means "everything sent before T is stored".
 */
public final class KafkaProgress {

    public static final String JOB_GROUP = "engram-extraction";

    private KafkaProgress() {}

    /** The current end offset of every partition of {@code topic}. */
    public static Map<TopicPartition, Long> endOffsets(String bootstrap, String topic)
            throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            var partitions =
                    admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get()
                            .get(topic)
                            .partitions();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(
                    p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        }
    }

    /**
     * Waits until the job's committed offsets reach {@code targets}; throws after {@code timeout}.
     */
    public static void awaitCommitted(
            String bootstrap, Map<TopicPartition, Long> targets, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            while (System.nanoTime() < deadline) {
                var committed =
                        admin.listConsumerGroupOffsets(JOB_GROUP)
                                .partitionsToOffsetAndMetadata()
                                .get();
                boolean done = true;
                for (var e : targets.entrySet()) {
                    var c = committed.get(e.getKey());
                    if (e.getValue() > 0 && (c == null || c.offset() < e.getValue())) {
                        done = false;
                        break;
                    }
                }
                if (done) {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        throw new IllegalStateException("the extraction job did not catch up within " + timeout);
    }
}
