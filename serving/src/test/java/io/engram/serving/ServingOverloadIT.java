package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.llm.FakeChatServer;
import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Recall under its deadline and its in-flight limit: a slow dependency uses up the deadline and the
 * stages after it are skipped instead of started late; beyond the limit a recall is answered at
 * once, without memories, instead of queueing behind the others.
 */
class ServingOverloadIT {

    /** A single-query recall; another limit is another cache entry. */
    private static ServingFixture.Reply askWhatAlicePaints(ServingFixture f, String key, int limit)
            throws Exception {
        return f.post(
                "/v1/memories/search",
                key,
                new JsonObject()
                        .put("user_id", "alice")
                        .put("query", "What does Alice paint?")
                        .put("multi_query", false)
                        .put("limit", limit));
    }

    @Test
    void aSlowLlmSpendsTheDeadlineAndARecallBeyondTheLimitIsAnsweredAtOnce() throws Exception {
        try (FakeChatServer llm = new FakeChatServer()) {
            llm.otherwise(
                    FakeChatServer.Reply.content("[\"What are Alice's hobbies?\"]").delayed(5_000));
            try (ServingFixture f =
                    new ServingFixture(
                            "overload_it",
                            SharedServices.openSearch().url(),
                            Map.of(
                                    "ENGRAM_LLM_URL", llm.baseUrl(),
                                    "ENGRAM_SERVER_RECALL_DEADLINE_MS", "400",
                                    "ENGRAM_SERVER_MAX_RECALLS_IN_FLIGHT", "1"))) {
                String key = f.key("acme", "default", "prod", "read", "write");
                f.store(
                        key,
                        new JsonObject()
                                .put("user_id", "alice")
                                .put("content", "Alice paints watercolours."));
                f.refresh();

                // A multi-query recall waits for the model's auxiliary questions.
                CompletableFuture<HttpResponse<String>> slow =
                        HttpClient.newHttpClient()
                                .sendAsync(
                                        HttpRequest.newBuilder(
                                                        URI.create(f.base + "/v1/memories/search"))
                                                .header("Authorization", "Bearer " + key)
                                                .header("Content-Type", "application/json")
                                                .POST(
                                                        HttpRequest.BodyPublishers.ofString(
                                                                new JsonObject()
                                                                        .put("user_id", "alice")
                                                                        .put(
                                                                                "query",
                                                                                "What gift should I get for my wife?")
                                                                        .encode()))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString());
                Await.until(Duration.ofSeconds(10), () -> llm.calls() > 0);

                // The one slot is taken: the next recall does no work and says why.
                ServingFixture.Reply refused = askWhatAlicePaints(f, key, 7);
                assertThat(refused.status()).isEqualTo(200);
                assertThat(refused.json().getJsonArray("degraded").getList())
                        .containsExactly("overload");
                assertThat(refused.json().getJsonArray("memories")).isEmpty();
                assertThat(refused.json().getBoolean("skipped")).isTrue();

                // The slow one: the model's 400 ms used the whole deadline, so nothing was
                // started after it (without the deadline the search would still have run).
                HttpResponse<String> answered = slow.get();
                assertThat(answered.statusCode()).isEqualTo(200);
                JsonObject body = new JsonObject(answered.body());
                assertThat(body.getJsonArray("degraded").getList()).contains("llm", "deadline");
                assertThat(body.getJsonArray("memories")).isEmpty();

                // With the slot free again, a recall runs in full.
                ServingFixture.Reply after = askWhatAlicePaints(f, key, 3);
                assertThat(after.json().getJsonArray("degraded")).isEmpty();
                assertThat(after.json().getJsonArray("memories")).hasSize(1);
            }
        }
    }
}
