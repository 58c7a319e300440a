package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.config.EngramConfig;
import io.engram.events.ChatEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.services.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With e5-small-v2 the write plane gives each excerpt the vector of its own turn, and recall
 * searches the excerpts by those vectors: a question that shares no word with a turn still finds
 * it, through the whole stack (Kafka, the Flink job, PostgreSQL, OpenSearch, the API).
 */
class ExcerptVectorsIT {

    @TempDir Path home;

    private static final String[][] TURNS = {
        {"Ann", "Work has been hectic, we shipped the new release on Friday."},
        {"Bob", "Congrats! Did the team celebrate?"},
        {"Ann", "Every Saturday morning I take my little sailboat out on the lake."},
        {"Bob", "The weather forecast says rain all week, sadly."},
        {"Ann", "My landlord finally fixed the broken radiator in the kitchen."},
        {"Bob", "Good, that took him long enough."},
    };

    @Test
    void aQuestionFindsAnExcerptByItsTurnsMeaning() throws Exception {
        EngramConfig config =
                StackClient.testConfig(
                        home, 0, Map.of("ENGRAM_EMBEDDING_VERSION", "e5-small-v2-int8"));
        try (LocalStack stack = LocalStack.start(config)) {
            StackClient api = new StackClient(stack);
            Instant ts = Instant.parse("2026-03-14T09:00:00Z");
            List<ChatEvent> events = new ArrayList<>();
            for (int i = 0; i < TURNS.length; i++) {
                events.add(
                        new TurnEvent(
                                "ev" + i,
                                "local",
                                "default",
                                "development",
                                "ann",
                                "s1",
                                "t" + i,
                                Role.USER,
                                Optional.of(TURNS[i][0]),
                                TURNS[i][1],
                                ts.plusSeconds(i)));
            }
            events.add(
                    new SessionEndEvent(
                            "end",
                            "local",
                            "default",
                            "development",
                            "ann",
                            "s1",
                            ts.plusSeconds(60)));
            api.publish(events);
            assertThat(Await.until(Duration.ofSeconds(120), api::drained))
                    .as("the extraction job has read and stored the session")
                    .isTrue();
            assertThat(
                            api.count(
                                    "select count(*) from memories where user_id = 'ann'"
                                            + " and 'excerpt' = any(tags)"))
                    .as("excerpts stored")
                    .isGreaterThanOrEqualTo(3);

            // Excerpts only, by vectors only: without excerpt vectors this finds nothing at all.
            String body =
                    "{\"user_id\":\"ann\",\"query\":\"What does Ann do for fun on weekends?\","
                            + "\"tags\":[\"excerpt\"],\"retrieval\":\"dense\",\"limit\":1,"
                            + "\"force\":true}";
            JsonNode found =
                    api.awaitJson(
                            "POST",
                            "/v1/memories/search",
                            body,
                            Duration.ofSeconds(60),
                            r -> r.path("memories").size() == 1);
            assertThat(found).as("an excerpt found by its vector: %s", found).isNotNull();
            assertThat(found.path("memories").size())
                    .as("an excerpt found by its vector: %s", found)
                    .isEqualTo(1);
            JsonNode top = found.path("memories").get(0);
            assertThat(top.path("tags").toString()).contains("excerpt");
            // The excerpt of the sailing turn: it ends with that turn, and was found by it.
            assertThat(top.path("content").asText()).endsWith(TURNS[2][1]);
            assertThat(top.path("embedding_version").asText()).isEqualTo("e5-small-v2-int8");
        }
    }
}
