package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.services.Await;
import io.engram.store.opensearch.IndexInspection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values that change across sessions, said in different ways, through the API on the whole local
 * stack: the first memory recall returns holds the new value, and no memory it returns presents the
 * old one as current (a fact that states it is history, an excerpt or summary that quotes it says
 * {@code current: false}). Then every turn is sent again with the same ids: nothing changes in
 * PostgreSQL, the index or the events.
 */
class ValueChangesIT {

    @TempDir Path home;

    /** One user's value: what session 1 says, what session 2 says, the question, both values. */
    record Change(
            String user,
            String before,
            String after,
            String question,
            String oldValue,
            String newValue) {}

    static final List<Change> CHANGES =
            List.of(
                    new Change(
                            "val-budget",
                            "My budget for the Hawaii trip is $10,000.",
                            "Actually, we raised our budget for the Hawaii trip to $15,000.",
                            "What is my budget for the Hawaii trip?",
                            "$10,000",
                            "$15,000"),
                    new Change(
                            "val-budget-ellipsis",
                            "My budget for the Hawaii trip is $10,000.",
                            "Actually make that $15,000, my budget for the Hawaii trip went up.",
                            "What is my budget for the Hawaii trip?",
                            "$10,000",
                            "$15,000"),
                    new Change(
                            "val-home",
                            "I live in Boston with my partner.",
                            "Big news: I moved to Denver last month!",
                            "Where do I live?",
                            "Boston",
                            "Denver"),
                    new Change(
                            "val-job",
                            "I work at Google as an engineer.",
                            "I just started a new job at Stripe.",
                            "Where do I work?",
                            "Google",
                            "Stripe"),
                    new Change(
                            "val-colour",
                            "My favorite color is blue.",
                            "Green is my favorite color now.",
                            "What is my favorite color?",
                            "blue",
                            "Green"),
                    new Change(
                            "val-cat",
                            "My cat's name is Miso.",
                            "Oops, my cat's name is actually Mochi.",
                            "What is my cat's name?",
                            "Miso",
                            "Mochi"),
                    new Change(
                            "val-address",
                            "My address is 12 Oak Street.",
                            "My new address is 5 Elm Road.",
                            "What is my address?",
                            "12 Oak Street",
                            "5 Elm Road"));

    @Test
    void recallGivesTheNewValueFirstAndNeverTheOldOneAsCurrentAndResendingChangesNothing()
            throws Exception {
        try (LocalStack stack = LocalStack.start(StackClient.testConfig(home, 1000))) {
            StackClient api = new StackClient(stack);
            List<String> bodies = new ArrayList<>();
            for (Change c : CHANGES) {
                bodies.add(session(c.user(), "s1", "2026-01-10T09:00:00Z", c.before()));
                bodies.add(session(c.user(), "s2", "2026-03-20T18:00:00Z", c.after()));
            }
            for (String body : bodies.subList(0, bodies.size())) {
                if (body.contains("\"s1\"")) {
                    api.json("POST", "/v1/turns", body);
                }
            }
            assertThat(Await.until(Duration.ofSeconds(90), api::drained)).isTrue();
            for (String body : bodies) {
                if (body.contains("\"s2\"")) {
                    api.json("POST", "/v1/turns", body);
                }
            }
            assertThat(Await.until(Duration.ofSeconds(90), api::drained)).isTrue();

            List<String> wrong = new ArrayList<>();
            for (Change c : CHANGES) {
                JsonNode memories = recallUntilSettled(api, c);
                String first = memories.path(0).path("content").asText();
                if (!first.contains(c.newValue())) {
                    wrong.add(c.user() + ": first memory is '" + first + "'");
                }
                for (JsonNode m : memories) {
                    String text = m.path("content").asText();
                    if (text.contains(c.oldValue())
                            && !text.contains(c.newValue())
                            && m.path("current").asBoolean(true)) {
                        wrong.add(
                                c.user()
                                        + ": '"
                                        + text
                                        + "' presents "
                                        + c.oldValue()
                                        + " as current");
                    }
                }
            }
            assertThat(wrong)
                    .as(
                            "stored: %s",
                            api.rows(
                                    "select user_id, status, contradicted_by, content from memories order by user_id, created_at"))
                    .isEmpty();

            String state =
                    "select count(*) || '/' || sum(version) || '/' || coalesce(sum(length(content)), 0)"
                            + " || '/' || count(contradicted_by) from memories";
            String before = api.rows(state).get(0);
            // Recall events are written by the recalls above, off their response path.
            long events = api.count("select count(*) from memory_events where kind <> 'recall'");
            long documents = indexed(stack);
            for (String body : bodies) {
                api.json("POST", "/v1/turns", body);
            }
            assertThat(Await.until(Duration.ofSeconds(90), api::drained)).isTrue();
            assertThat(api.rows(state).get(0))
                    .as("memories after sending every turn again")
                    .isEqualTo(before);
            assertThat(api.count("select count(*) from memory_events where kind <> 'recall'"))
                    .isEqualTo(events);
            assertThat(indexed(stack)).isEqualTo(documents);
        }
    }

    /** Recall for the change's question once the index has caught up with both sessions. */
    private static JsonNode recallUntilSettled(StackClient api, Change c) throws Exception {
        JsonNode[] last = {null};
        Await.until(
                Duration.ofSeconds(20),
                () -> {
                    try {
                        last[0] =
                                api.json(
                                                "POST",
                                                "/v1/memories/search",
                                                "{\"user_id\":\""
                                                        + c.user()
                                                        + "\",\"query\":\""
                                                        + c.question()
                                                        + "\",\"limit\":10}")
                                        .path("memories");
                        return last[0].size() > 0
                                && last[0].path(0).path("content").asText().contains(c.newValue());
                    } catch (Exception e) {
                        return false;
                    }
                });
        return last[0];
    }

    private static long indexed(LocalStack stack) {
        var c = stack.config();
        var index =
                io.engram.store.opensearch.OpenSearchClients.forConfig(
                        c.openSearch(), Duration.ofSeconds(10));
        IndexInspection.refresh(index, c.memoryIndexAlias());
        return IndexInspection.count(index, c.memoryIndexAlias());
    }

    private static String session(String user, String session, String ts, String text) {
        ObjectNode body = StackClient.JSON.createObjectNode();
        body.put("user_id", user).put("session_id", session).put("end_session", true);
        ArrayNode turns = body.putArray("turns");
        turns.addObject()
                .put("turn_id", session + "-t1")
                .put("role", "user")
                .put("speaker", "Alex")
                .put("content", text)
                .put("ts", ts);
        turns.addObject()
                .put("turn_id", session + "-t2")
                .put("role", "assistant")
                .put("content", "Got it, I'll remember that.")
                .put("ts", ts.replace(":00Z", ":30Z"));
        return body.toString();
    }
}
