package io.engram.serving.recall;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.Excerpts;
import io.engram.ranking.RankingSettings;
import io.engram.serving.auth.Principal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The answer stage of recall on hand-made candidates: no services. */
class RecallAnswerTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Principal KEY =
            new Principal("k", "t", "p", "production", Set.of("read"), 100);

    private static RecallCall call(String query, int limit) {
        SearchRequest request =
                SearchRequest.parse(
                        new JsonObject()
                                .put("user_id", "alice")
                                .put("query", query)
                                .put("limit", limit),
                        KEY,
                        RankingSettings.DEFAULT);
        RecallCall call = new RecallCall(request, "req-1", 1000);
        call.rewritten = query;
        call.queries = List.of(query);
        return call;
    }

    private static String id() {
        return UUID.randomUUID().toString();
    }

    private static MemoryRow row(
            String id,
            String content,
            List<String> tags,
            List<String> turns,
            String contradictedBy) {
        Instant at = NOW.minusSeconds(86400);
        return new MemoryRow(
                id,
                content,
                "semantic",
                "hot",
                "active",
                tags,
                turns,
                0.6,
                0.8,
                contradictedBy == null ? 1.0 : 0.2,
                1.0,
                0,
                at,
                at,
                null,
                "v1",
                contradictedBy,
                null,
                contradictedBy == null ? null : "Alice's budget is $15,000.");
    }

    private static void add(RecallCall call, MemoryRow row, double relevance) {
        RecallCall.Candidate c = new RecallCall.Candidate(row.id());
        c.row = row;
        c.relevance = relevance;
        call.candidates.put(row.id(), c);
    }

    @Test
    void aFactTakesItsExcerptAlongAndBothAreBookkept() {
        RecallCall call = call("What is Alice's budget for the Hawaii trip?", 5);
        String fact = id();
        String excerpt = id();
        add(
                call,
                row(
                        fact,
                        "Alice's budget for the Hawaii trip is $15,000.",
                        List.of(),
                        List.of("t2"),
                        null),
                0.8);
        add(
                call,
                row(
                        excerpt,
                        "Alice: Actually make that $15,000.",
                        List.of(Excerpts.TAG),
                        List.of("t1", "t2"),
                        null),
                0.6);

        RecallAnswer.Answer answer = RecallAnswer.of(call, NOW);

        JsonArray memories = answer.body().getJsonArray("memories");
        assertThat(memories).hasSize(1);
        JsonObject m = memories.getJsonObject(0);
        assertThat(m.getString("id")).isEqualTo(fact);
        assertThat(m.getString("context_id")).isEqualTo(excerpt);
        assertThat(m.getString("context")).contains("$15,000");
        assertThat(m.getBoolean("current")).isTrue();
        assertThat(answer.returned())
                .containsExactlyInAnyOrder(UUID.fromString(fact), UUID.fromString(excerpt));
        assertThat(answer.body().getBoolean("skipped")).isFalse();
        assertThat(answer.body().getString("explanation")).contains("2 candidates, 1 returned");
    }

    @Test
    void theExcerptsOwnRankingLiftsAnExcerptTheWordsRankedLow() {
        RecallCall call = call("What are John's goals for his career?", 3);
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String id = id();
            ids.add(id);
            add(
                    call,
                    row(id, "John: line " + i, List.of(Excerpts.TAG), List.of("D1:" + i), null),
                    0.9 - i * 0.1);
        }
        // Without an excerpt ranking: the weighted order, the last three left out.
        List<String> plain = returnedIds(RecallAnswer.of(call, NOW));
        assertThat(plain).containsExactly(ids.get(0), ids.get(1), ids.get(2));

        // The turns' vectors put the last excerpt first: it comes into the answer.
        call.excerptRanking.addAll(List.of(ids.get(5), ids.get(0)));
        RecallAnswer.Answer answer = RecallAnswer.of(call, NOW);
        assertThat(answer.body().getString("explanation"))
                .contains("fused with the excerpts' k-NN ranking");
        List<String> fused = returnedIds(answer);
        assertThat(fused).hasSize(3).contains(ids.get(5)).doesNotContain(ids.get(2));
        assertThat(fused.get(0)).isEqualTo(ids.get(0));
    }

    private static List<String> returnedIds(RecallAnswer.Answer answer) {
        JsonArray memories = answer.body().getJsonArray("memories");
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            out.add(memories.getJsonObject(i).getString("id"));
        }
        return out;
    }

    @Test
    void aContradictedMemoryRanksBelowWhatReplacedItAndSaysSo() {
        RecallCall call = call("What is Alice's budget?", 5);
        String now = id();
        String old = id();
        add(
                call,
                row(old, "Alice: my budget is $10,000.", List.of(Excerpts.TAG), List.of("t1"), now),
                0.9);
        add(call, row(now, "Alice's budget is $15,000.", List.of(), List.of("t2"), null), 0.7);

        JsonArray memories = RecallAnswer.of(call, NOW).body().getJsonArray("memories");

        assertThat(memories.getJsonObject(0).getString("id")).isEqualTo(now);
        JsonObject stale = memories.getJsonObject(1);
        assertThat(stale.getString("id")).isEqualTo(old);
        assertThat(stale.getBoolean("current")).isFalse();
        assertThat(stale.getString("contradicted_by")).isEqualTo(now);
        // What replaced it, in its words, even where the answer does not return it.
        assertThat(stale.getString("contradicted_by_content"))
                .isEqualTo("Alice's budget is $15,000.");
        assertThat(memories.getJsonObject(0).containsKey("contradicted_by_content")).isFalse();
    }

    @Test
    void withoutTheIndexRelevanceIsSharedWordsAndDegradationIsNamed() {
        RecallCall call = call("hiking boots size", 5);
        call.degraded.add("opensearch");
        String hit = id();
        String miss = id();
        // NaN relevance: the candidates came from PostgreSQL's fallback, not from a search.
        add(call, row(miss, "Alice likes tea.", List.of(), List.of("t1"), null), Double.NaN);
        add(
                call,
                row(hit, "Alice's hiking boots are size 39.", List.of(), List.of("t2"), null),
                Double.NaN);

        JsonObject body = RecallAnswer.of(call, NOW).body();

        assertThat(body.getJsonArray("memories").getJsonObject(0).getString("id")).isEqualTo(hit);
        assertThat(body.getJsonArray("degraded")).containsExactly("opensearch");
        assertThat(body.getString("explanation"))
                .contains("BM25 only")
                .contains("degraded: opensearch");
    }

    @Test
    void aFactFindsItsExcerptAmongTheUsersHeldRows() {
        RecallCall call = call("Where does Alice work?", 5);
        String fact = id();
        String excerpt = id();
        MemoryRow factRow = row(fact, "Alice works at Acme.", List.of(), List.of("t7"), null);
        MemoryRow excerptRow =
                row(
                        excerpt,
                        "Alice: I started at Acme last week.",
                        List.of(Excerpts.TAG),
                        List.of("t6", "t7"),
                        null);
        add(call, factRow, 0.8);
        call.userRows = Map.of(fact, factRow, excerpt, excerptRow);

        RecallAnswer.Answer answer = RecallAnswer.of(call, NOW);

        JsonObject m = answer.body().getJsonArray("memories").getJsonObject(0);
        assertThat(m.getString("context")).isEqualTo("Alice: I started at Acme last week.");
        assertThat(m.getJsonArray("source_turn_ids")).containsExactlyInAnyOrder("t6", "t7");
    }
}
