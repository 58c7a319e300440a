package io.engram.serving.health;

import io.engram.health.WritePlaneProgress;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The write plane's health as the serving tier can see it: every {@code periodMs}, the extraction
 * job's committed offsets of the turns topic against the topic's end ({@link WritePlaneProgress}).
 * Reported beside readiness and as metrics; the serving tier stays ready while the write plane is
 * behind (it still answers recalls), and {@code GET /health/write-plane} answers 503 when stalled.
 */
public final class WritePlaneHealth implements AutoCloseable {

    private final Vertx vertx;
    private final Admin admin;
    private final String topic;
    private final String group;
    private final WritePlaneProgress progress;
    private final long timer;
    private boolean polling;

    public WritePlaneHealth(
            Vertx vertx,
            Admin admin,
            String topic,
            String group,
            WritePlaneProgress progress,
            long periodMs) {
        this.vertx = vertx;
        this.admin = admin;
        this.topic = topic;
        this.group = group;
        this.progress = progress;
        this.timer = vertx.setPeriodic(0, periodMs, id -> poll());
    }

    /** Reads the offsets once (skipped while the previous read is still out). */
    private void poll() {
        if (polling) {
            return;
        }
        polling = true;
        read().onComplete(
                        ar -> {
                            polling = false;
                            if (ar.succeeded()) {
                                progress.observe(Instant.now(), ar.result()[0], ar.result()[1]);
                            } else {
                                progress.unreadable(
                                        Instant.now(), String.valueOf(ar.cause().getMessage()));
                            }
                        });
    }

    /** The committed and end offsets of the topic, each summed over its partitions. */
    private Future<long[]> read() {
        return Future.fromCompletionStage(
                        admin.describeTopics(List.of(topic)).allTopicNames().toCompletionStage(),
                        vertx.getOrCreateContext())
                .compose(
                        topics -> {
                            List<TopicPartition> partitions =
                                    topics.get(topic).partitions().stream()
                                            .map(p -> new TopicPartition(topic, p.partition()))
                                            .toList();
                            Map<TopicPartition, OffsetSpec> latest =
                                    partitions.stream()
                                            .collect(
                                                    Collectors.toMap(
                                                            p -> p, p -> OffsetSpec.latest()));
                            Future<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>>
                                    ends =
                                            Future.fromCompletionStage(
                                                    admin.listOffsets(latest)
                                                            .all()
                                                            .toCompletionStage(),
                                                    vertx.getOrCreateContext());
                            Future<Map<TopicPartition, OffsetAndMetadata>> committed =
                                    Future.fromCompletionStage(
                                            admin.listConsumerGroupOffsets(group)
                                                    .partitionsToOffsetAndMetadata()
                                                    .toCompletionStage(),
                                            vertx.getOrCreateContext());
                            return Future.all(ends, committed)
                                    .map(
                                            v -> {
                                                long end = 0;
                                                long done = 0;
                                                for (TopicPartition p : partitions) {
                                                    end += ends.result().get(p).offset();
                                                    OffsetAndMetadata at =
                                                            committed.result().get(p);
                                                    done += at == null ? 0 : at.offset();
                                                }
                                                return new long[] {done, end};
                                            });
                        })
                .timeout(5, TimeUnit.SECONDS);
    }

    /** The last report, as JSON. */
    public JsonObject report() {
        WritePlaneProgress.Report r = progress.last();
        JsonObject o =
                new JsonObject()
                        .put("state", r.state().wire())
                        .put("lag_turns", r.lag())
                        .put("seconds_since_progress", r.secondsSinceProgress());
        if (r.error() != null) {
            o.put("error", r.error());
        }
        return o;
    }

    /** Whether the write plane has stopped turning waiting turns into memories. */
    public boolean stalled() {
        return progress.last().state() == WritePlaneProgress.State.STALLED;
    }

    public WritePlaneProgress.Report last() {
        return progress.last();
    }

    /** For the Prometheus gauges. */
    public static double stateCode(WritePlaneProgress.Report r) {
        return switch (r.state()) {
            case CAUGHT_UP -> 0;
            case CATCHING_UP -> 1;
            case STALLED -> 2;
            case UNKNOWN -> 3;
        };
    }

    @Override
    public void close() {
        vertx.cancelTimer(timer);
    }
}
