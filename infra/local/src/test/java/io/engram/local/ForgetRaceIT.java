package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.EngramConfig;
import io.engram.services.Await;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClients;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * Turns accepted a moment before a forget of their user, on the whole local stack: once the
 * extraction job has read past them, nothing of those turns is a memory in PostgreSQL or a document
 * in the index, whatever the delay between the turns and the forget.
 */
class ForgetRaceIT {

    @TempDir Path home;

    @Test
    void turnsAcceptedJustBeforeAForgetNeverBecomeOrStayMemories() throws Exception {
        EngramConfig config = StackClient.testConfig(home, 1000);
        List<Integer> delaysMs = List.of(0, 50, 100, 200, 350, 700);
        try (LocalStack stack = LocalStack.start(config)) {
            EngramConfig c = stack.config();
            StackClient api = new StackClient(stack);
            // Each user talked before: the job holds state for them (as for any active user).
            for (int i = 0; i < delaysMs.size(); i++) {
                HttpResponse<String> earlier =
                        api.call(
                                "POST",
                                "/v1/turns",
                                "{\"user_id\":\"racer"
                                        + i
                                        + "\",\"session_id\":\"s0\",\"end_session\":true,\"turns\":["
                                        + "{\"turn_id\":\"t0\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"I have a cat named Tom.\"}]}");
                assertThat(earlier.statusCode()).as(earlier.body()).isEqualTo(202);
            }
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(90),
                                    () ->
                                            count(
                                                            c,
                                                            "select count(distinct user_id) from memories"
                                                                    + " where user_id like 'racer%'")
                                                    == delaysMs.size()))
                    .as("the earlier sessions are memories")
                    .isTrue();
            for (int i = 0; i < delaysMs.size(); i++) {
                String user = "racer" + i;
                HttpResponse<String> turns =
                        api.call(
                                "POST",
                                "/v1/turns",
                                "{\"user_id\":\""
                                        + user
                                        + "\",\"session_id\":\"s1\",\"end_session\":true,\"turns\":["
                                        + "{\"turn_id\":\"t1\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"My budget for the Hawaii trip is $10,000.\"},"
                                        + "{\"turn_id\":\"t2\",\"role\":\"user\",\"speaker\":\"Ray\","
                                        + "\"content\":\"I live in Leeds with my sister Ana.\"}]}");
                assertThat(turns.statusCode()).as(turns.body()).isEqualTo(202);
                // The delay between the turns and the forget is what this test varies, not a
                // wait for a condition.
                Thread.sleep(delaysMs.get(i));
                HttpResponse<String> forget =
                        api.call("DELETE", "/v1/memories?user_id=" + user, null);
                assertThat(forget.statusCode()).as(forget.body()).isEqualTo(200);
            }
            assertThat(Await.until(Duration.ofSeconds(120), api::drained))
                    .as("the extraction job has read and stored everything on the topic")
                    .isTrue();
            OpenSearchClient index =
                    OpenSearchClients.forConfig(c.openSearch(), Duration.ofSeconds(10));
            IndexInspection.refresh(index, c.memoryIndexAlias());
            for (int i = 0; i < delaysMs.size(); i++) {
                String user = "racer" + i;
                assertThat(count(c, "select count(*) from memories where user_id = '" + user + "'"))
                        .as(
                                "memories of %s, forgotten %d ms after its turns",
                                user, delaysMs.get(i))
                        .isZero();
                MemoryQuery q =
                        MemoryQuery.forScope(
                                        new io.engram.memory.Scope(
                                                "local", "default", "development", user))
                                .includeHistory(true);
                long documents = IndexInspection.count(index, c.memoryIndexAlias(), q);
                assertThat(documents)
                        .as("index documents of %s, forgotten %d ms after", user, delaysMs.get(i))
                        .isZero();
            }
        }
    }

    private static int count(EngramConfig c, String sql) {
        try (Connection conn =
                        DriverManager.getConnection(
                                c.postgres().url(), c.postgres().user(), c.postgres().password());
                ResultSet rs = conn.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        } catch (Exception e) {
            return -1;
        }
    }
}
