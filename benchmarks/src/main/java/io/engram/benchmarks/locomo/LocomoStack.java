package io.engram.benchmarks.locomo;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.benchmarks.support.KafkaProgress;
import io.engram.config.EngramConfig;
import io.engram.events.EventCodec;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.extraction.Excerpts;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the evaluation does to a local stack besides asking: feeds the conversations through Kafka
 * as a chat platform would, waits for the write plane, counts memories and resets recall
 * bookkeeping between variants.
 */
final class LocomoStack {

    private LocomoStack() {}

    /** Active memories: all of them, and the excerpts among them. */
    static long[] activeMemories(EngramConfig c) throws java.sql.SQLException {
        try (java.sql.Connection conn = connect(c);
                var rs =
                        conn.createStatement()
                                .executeQuery(
                                        "select count(*), count(*) filter (where '"
                                                + Excerpts.TAG
                                                + "' = any(tags)) from memories where status = 'active'")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    static java.sql.Connection connect(EngramConfig c) throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(
                c.postgres().url(), c.postgres().user(), c.postgres().password());
    }

    /**
     * Undoes what the recall bookkeeping of the previous run wrote (usage counts, last access,
     * recall events), once it has been flushed: otherwise the recency and usage signals of the
     * default weights favour what the previous variant returned for the same questions.
     */
    static void forgetRecalls(EngramConfig c) throws Exception {
        try (java.sql.Connection conn = connect(c)) {
            long last = -1;
            long now = recallEvents(conn);
            while (now != last) {
                Thread.sleep(2000); // the bookkeeper flushes in batches, about every second
                last = now;
                now = recallEvents(conn);
            }
            conn.createStatement()
                    .executeUpdate(
                            "update memories set usage_count = 0, last_accessed_at = null"
                                    + " where usage_count > 0 or last_accessed_at is not null");
            conn.createStatement().executeUpdate("delete from memory_events where kind = 'recall'");
        }
    }

    static long recallEvents(java.sql.Connection conn) throws java.sql.SQLException {
        try (var rs =
                conn.createStatement()
                        .executeQuery("select count(*) from memory_events where kind = 'recall'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static int ingest(EngramConfig c, List<JsonNode> conversations) throws Exception {
        int n = 0;
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                c.kafka().bootstrapServers(),
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (JsonNode conv : conversations) {
                String user = conv.path("conversation_id").asText();
                int lastSession = -1;
                Instant last = null;
                for (JsonNode t : conv.path("turns")) {
                    int session = t.path("session").asInt();
                    if (lastSession != -1 && session != lastSession) {
                        send(producer, c, sessionEnd(user, lastSession, last));
                    }
                    lastSession = session;
                    // Turns of a session share its timestamp; a second per turn keeps their order.
                    Instant ts =
                            LocalDateTime.parse(t.path("timestamp").asText())
                                    .toInstant(ZoneOffset.UTC)
                                    .plusSeconds(t.path("turn_in_session").asInt());
                    last = ts;
                    String text = t.path("text").asText();
                    if (t.hasNonNull("image_caption")) {
                        text = text + " [shares a photo: " + t.path("image_caption").asText() + "]";
                    }
                    send(
                            producer,
                            c,
                            new TurnEvent(
                                    "e-" + user + "-" + t.path("turn_id").asText(),
                                    "local",
                                    "default",
                                    "development",
                                    user,
                                    "s" + session,
                                    t.path("turn_id").asText(),
                                    Role.USER,
                                    Optional.of(t.path("speaker").asText()),
                                    text,
                                    ts));
                    n++;
                }
                if (lastSession != -1) {
                    send(producer, c, sessionEnd(user, lastSession, last));
                }
            }
            producer.flush();
        }
        return n;
    }

    static SessionEndEvent sessionEnd(String user, int session, Instant ts) {
        return new SessionEndEvent(
                "end-" + user + "-" + session,
                "local",
                "default",
                "development",
                user,
                "s" + session,
                ts);
    }

    static void send(
            KafkaProducer<String, byte[]> producer, EngramConfig c, io.engram.events.ChatEvent e) {
        producer.send(new ProducerRecord<>(c.kafka().turnsTopic(), e.key(), EventCodec.encode(e)));
    }

    static void awaitIngested(EngramConfig c) throws Exception {
        String bootstrap = c.kafka().bootstrapServers();
        KafkaProgress.awaitCommitted(
                bootstrap,
                KafkaProgress.endOffsets(bootstrap, c.kafka().turnsTopic()),
                Duration.ofMinutes(30));
    }
}
