package io.engram.serving.turns;

import io.engram.events.ChatEvent;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.memory.MemoryIds;
import io.engram.memory.Scope;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code POST /v1/turns}: validates a batch of turns and puts them on the turns topic for the
 * extraction job. Event ids are derived from the turn, so a retried request is the same events.
 */
public final class TurnIngest implements AutoCloseable {

    static final Set<String> BODY =
            Set.of("user_id", "session_id", "project_id", "end_session", "turns");
    static final Set<String> TURN = Set.of("turn_id", "role", "speaker", "content", "ts");
    static final int MAX_TURNS = 100;

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final WorkerExecutor sender;

    /** {@code client}: the bootstrap servers and TLS settings. */
    public TurnIngest(Vertx vertx, Map<String, Object> client, String topic) {
        Map<String, Object> settings = new HashMap<>(client);
        settings.putAll(
                Map.of(
                        ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                        ProducerConfig.LINGER_MS_CONFIG, 2,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG, 2000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000));
        this.producer =
                new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.sender = vertx.createSharedWorkerExecutor("engram-kafka", 2);
    }

    /** Validates the body into events (400 naming the field on any problem). */
    public static List<ChatEvent> events(JsonObject body, Scope scope, String sessionId) {
        Object raw = body.getValue("turns");
        if (!(raw instanceof JsonArray turns)) {
            throw Problem.badRequest("turns: must be an array");
        }
        if (turns.size() > MAX_TURNS) {
            throw Problem.badRequest("turns: at most " + MAX_TURNS + " per request");
        }
        boolean end = Fields.bool(body, "end_session", false);
        if (turns.isEmpty() && !end) {
            throw Problem.badRequest("turns: must not be empty unless end_session is true");
        }
        List<ChatEvent> out = new ArrayList<>();
        Instant last = Instant.EPOCH;
        for (int i = 0; i < turns.size(); i++) {
            String at = "turns[" + i + "]";
            if (!(turns.getValue(i) instanceof JsonObject t)) {
                throw Problem.badRequest(at + ": must be an object");
            }
            for (String f : t.fieldNames()) {
                if (!TURN.contains(f)) {
                    throw Problem.badRequest(at + "." + f + ": unknown field");
                }
            }
            String turnId = field(at, () -> Fields.id(t, "turn_id"));
            String roleText = field(at, () -> Fields.text(t, "role", 20));
            Role role;
            try {
                role = Role.valueOf(roleText.toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw Problem.badRequest(at + ".role: must be user, assistant, system or tool");
            }
            String speaker = field(at, () -> Fields.optionalText(t, "speaker", 200));
            String content =
                    field(at, () -> Fields.text(t, "content", EventCodec.MAX_CONTENT_CHARS));
            Instant ts = field(at, () -> Fields.optionalTime(t, "ts"));
            if (ts == null) {
                ts = Instant.now();
            }
            last = ts.isAfter(last) ? ts : last;
            String eventId =
                    MemoryIds.nameUuid(
                                    "turn\u0000" + scope + "\u0000" + sessionId + "\u0000" + turnId)
                            .toString();
            out.add(
                    new TurnEvent(
                            eventId,
                            scope.tenantId(),
                            scope.projectId(),
                            scope.environment(),
                            scope.userId(),
                            sessionId,
                            turnId,
                            role,
                            Optional.ofNullable(speaker),
                            content,
                            ts));
        }
        if (end) {
            Instant ts = out.isEmpty() ? Instant.now() : last;
            out.add(
                    new SessionEndEvent(
                            MemoryIds.nameUuid("end\u0000" + scope + "\u0000" + sessionId)
                                    .toString(),
                            scope.tenantId(),
                            scope.projectId(),
                            scope.environment(),
                            scope.userId(),
                            sessionId,
                            ts));
        }
        return out;
    }

    private static <T> T field(String prefix, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (Problem p) {
            throw Problem.badRequest(prefix + "." + p.getMessage());
        }
    }

    /** Sends the events in order; fails with 503 when the broker does not take them. */
    public Future<Integer> send(List<ChatEvent> events) {
        return sender.<Integer>executeBlocking(
                        () -> {
                            List<CompletableFuture<Void>> acks = new ArrayList<>();
                            for (ChatEvent e : events) {
                                CompletableFuture<Void> ack = new CompletableFuture<>();
                                producer.send(
                                        new ProducerRecord<>(topic, e.key(), EventCodec.encode(e)),
                                        (meta, err) -> {
                                            if (err != null) {
                                                ack.completeExceptionally(err);
                                            } else {
                                                ack.complete(null);
                                            }
                                        });
                                acks.add(ack);
                            }
                            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
                            return events.size();
                        },
                        true)
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "turns not accepted: the event broker is unavailable; retry")));
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
        sender.close();
    }
}
