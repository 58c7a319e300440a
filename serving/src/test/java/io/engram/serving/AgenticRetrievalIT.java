package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.llm.FakeChatServer;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retrieval strategies on real services: a chain finds the second hop of a two-hop question that a
 * single search cannot; a split searches each subject; a model plans when one is configured, and
 * when it fails the heuristic planner does and the answer says so.
 */
class AgenticRetrievalIT {

    private static final String HUSBAND = "Alice's husband is Bob Smith.";
    private static final String EMPLOYER = "Bob Smith is employed by Initech as a welder.";

    /** Two facts that only together answer "where does Alice's husband work?", among others. */
    private static void storeTwoHops(ServingFixture f, String key) throws Exception {
        List<String> contents = new ArrayList<>(List.of(HUSBAND, EMPLOYER));
        contents.addAll(
                List.of(
                        "Alice plays the cello on Sundays.",
                        "Alice is allergic to peanuts.",
                        "Alice's sister Carol lives in Lisbon.",
                        "Carol enjoys hiking and board games.",
                        "Alice enjoys hiking and watercolour painting.",
                        "Alice works as a nurse at the city hospital.",
                        "Alice's dog is called Pepper.",
                        "Alice is learning Portuguese."));
        for (String c : contents) {
            f.store(key, new JsonObject().put("user_id", "alice").put("content", c));
        }
        f.refresh();
    }

    private static ServingFixture.Reply search(
            ServingFixture f, String key, String query, String strategy) throws Exception {
        JsonObject body =
                new JsonObject()
                        .put("user_id", "alice")
                        .put("query", query)
                        .put("force", true)
                        .put("limit", 5)
                        // Lexical only: the k-NN leg would return every one of a small user's
                        // memories, the second hop included.
                        .put("retrieval", "bm25");
        if (strategy != null) {
            body.put("strategy", strategy);
        }
        ServingFixture.Reply r = f.post("/v1/memories/search", key, body);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r;
    }

    private static List<String> contents(ServingFixture.Reply r) {
        List<String> out = new ArrayList<>();
        JsonArray memories = r.json().getJsonArray("memories");
        for (int i = 0; i < memories.size(); i++) {
            out.add(memories.getJsonObject(i).getString("content"));
        }
        return out;
    }

    @Test
    void aChainFindsTheSecondHopThatOneSearchMisses() throws Exception {
        try (ServingFixture f =
                new ServingFixture("agentic_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            storeTwoHops(f, key);
            String question = "Where does Alice's husband work?";

            ServingFixture.Reply direct = search(f, key, question, null);
            assertThat(direct.json().getJsonObject("strategy").getString("ran"))
                    .isEqualTo("direct");
            assertThat(contents(direct)).contains(HUSBAND).doesNotContain(EMPLOYER);
            assertThat(direct.json().getJsonArray("hops")).hasSize(1);

            ServingFixture.Reply auto = search(f, key, question, "auto");
            JsonObject strategy = auto.json().getJsonObject("strategy");
            assertThat(strategy.getString("requested")).isEqualTo("auto");
            assertThat(strategy.getString("ran")).isEqualTo("chain");
            assertThat(strategy.getString("planner")).isEqualTo("heuristic");
            assertThat(strategy.getString("reason")).isEqualTo("follows a relation");
            assertThat(contents(auto)).as(auto.raw()).contains(HUSBAND, EMPLOYER);
            JsonArray hops = auto.json().getJsonArray("hops");
            assertThat(hops.size()).isBetween(2, 3);
            JsonObject second = hops.getJsonObject(1);
            assertThat(second.getInteger("hop")).isEqualTo(2);
            assertThat(second.getJsonArray("queries").getString(0)).contains("Bob", "Smith");
            assertThat(second.getInteger("new_candidates")).isPositive();
            // Every query issued is reported: the first hop's, then the second's.
            List<Object> issued =
                    new ArrayList<>(hops.getJsonObject(0).getJsonArray("queries").getList());
            issued.addAll(second.getJsonArray("queries").getList());
            if (hops.size() == 3) {
                issued.addAll(hops.getJsonObject(2).getJsonArray("queries").getList());
            }
            assertThat(auto.json().getJsonArray("queries").getList()).isEqualTo(issued);
            assertThat(auto.json().getString("explanation")).startsWith("strategy chain");
            assertThat(auto.response().headers().firstValue("Server-Timing").orElseThrow())
                    .contains("route;dur=", "hops;dur=");
            assertThat(auto.json().getJsonArray("degraded")).isEmpty();

            // A question whose answer one memory holds stops after judging the first hop.
            ServingFixture.Reply enough = search(f, key, "What is Alice's dog called?", "chain");
            JsonArray stop = enough.json().getJsonArray("hops");
            assertThat(stop.getJsonObject(stop.size() - 1).getString("verdict"))
                    .startsWith("sufficient");
            assertThat(contents(enough).get(0)).isEqualTo("Alice's dog is called Pepper.");
        }
    }

    @Test
    void aSplitSearchesEachSubject() throws Exception {
        try (ServingFixture f =
                new ServingFixture("agentic_split_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            storeTwoHops(f, key);
            ServingFixture.Reply split =
                    search(f, key, "What do Alice and Carol both enjoy?", "auto");
            assertThat(split.json().getJsonObject("strategy").getString("ran")).isEqualTo("split");
            assertThat(split.json().getJsonArray("queries").getList())
                    .containsExactly(
                            "What do Alice and Carol both enjoy?",
                            "What do Alice enjoy?",
                            "What do Carol enjoy?");
            assertThat(contents(split))
                    .as(split.raw())
                    .contains(
                            "Carol enjoys hiking and board games.",
                            "Alice enjoys hiking and watercolour painting.");

            ServingFixture.Reply bad =
                    f.post(
                            "/v1/memories/search",
                            key,
                            new JsonObject()
                                    .put("user_id", "alice")
                                    .put("query", "x")
                                    .put("strategy", "sideways"));
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.raw()).contains("strategy").contains("auto, direct, split, chain");
        }
    }

    @Test
    void aDayTheQuestionNamesRanksWhatWasValidThenFirst() throws Exception {
        try (ServingFixture f =
                new ServingFixture("agentic_time_it", SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            // Two trips, not one value changing: both stay current.
            String march =
                    "Alice presented her research on night shifts at a conference in Lisbon.";
            String june =
                    "Alice and her sister Carol flew to Oslo for a conference on hospital staffing.";
            for (String[] m :
                    List.of(
                            new String[] {march, "2026-03-02T09:00:00Z"},
                            new String[] {june, "2026-06-01T09:00:00Z"})) {
                f.store(
                        key,
                        new JsonObject()
                                .put("user_id", "alice")
                                .put("content", m[0])
                                .put("valid_from", m[1]));
            }
            f.refresh();
            String question = "Where did Alice fly for a conference, as she said on 5 March, 2026?";

            // The default request (direct): the newer trip would come first by recency; the day
            // the question names puts the one valid then first.
            ServingFixture.Reply r = search(f, key, question, null);
            assertThat(r.json().getJsonObject("strategy").getString("ran")).isEqualTo("direct");
            JsonObject window = r.json().getJsonObject("strategy").getJsonObject("time_window");
            assertThat(window.getString("phrase")).isEqualTo("5 March, 2026");
            assertThat(window.getString("from")).isEqualTo("2026-02-19T00:00:00Z");
            assertThat(window.getString("to")).isEqualTo("2026-03-06T00:00:00Z");
            assertThat(contents(r)).as(r.raw()).containsExactly(march, june);

            // A question without a day keeps the newer first.
            ServingFixture.Reply plain =
                    search(f, key, "Where did Alice fly for a conference?", null);
            assertThat(plain.json().getJsonObject("strategy").containsKey("time_window")).isFalse();
            assertThat(contents(plain)).containsExactly(june, march);
        }
    }

    @Test
    void aFailingModelFallsBackToTheHeuristicPlanner() throws Exception {
        try (FakeChatServer llm = new FakeChatServer()) {
            llm.otherwise(FakeChatServer.Reply.status(500, "{\"error\": \"down\"}"));
            try (ServingFixture f =
                    new ServingFixture(
                            "agentic_llm_down_it",
                            SharedServices.openSearch().url(),
                            Map.of("ENGRAM_LLM_URL", llm.baseUrl()))) {
                String key = f.key("acme", "default", "prod", "read", "write");
                storeTwoHops(f, key);
                ServingFixture.Reply r = search(f, key, "Where does Alice's husband work?", "auto");
                assertThat(llm.calls()).isPositive();
                assertThat(r.json().getJsonArray("degraded").getList()).contains("llm");
                JsonObject strategy = r.json().getJsonObject("strategy");
                assertThat(strategy.getString("planner")).isEqualTo("heuristic");
                assertThat(strategy.getString("ran")).isEqualTo("chain");
                assertThat(contents(r)).contains(HUSBAND, EMPLOYER);
            }
        }
    }

    @Test
    void aWorkingModelPlansTheRouteAndTheHops() throws Exception {
        try (FakeChatServer llm = new FakeChatServer()) {
            // One answer fits every prompt (route, hop and auxiliary questions run concurrently):
            // chain, and search for the employer of the husband.
            llm.otherwise(
                    FakeChatServer.Reply.content(
                            "{\"strategy\": \"chain\", \"sufficient\": false, \"queries\":"
                                    + " [\"Initech employee welder\"], \"reason\": \"the husband"
                                    + " first, then his employer\"}"));
            try (ServingFixture f =
                    new ServingFixture(
                            "agentic_llm_it",
                            SharedServices.openSearch().url(),
                            Map.of("ENGRAM_LLM_URL", llm.baseUrl()))) {
                String key = f.key("acme", "default", "prod", "read", "write");
                storeTwoHops(f, key);
                ServingFixture.Reply r =
                        search(f, key, "Who is the husband of Alice employed by?", "auto");
                assertThat(r.json().getJsonArray("degraded")).isEmpty();
                JsonObject strategy = r.json().getJsonObject("strategy");
                assertThat(strategy.getString("planner")).isEqualTo("llm");
                assertThat(strategy.getString("ran")).isEqualTo("chain");
                assertThat(strategy.getString("reason"))
                        .isEqualTo("the husband first, then his employer");
                assertThat(r.json().getJsonArray("queries").getList())
                        .contains("Initech employee welder");
                assertThat(contents(r)).contains(EMPLOYER);
                // The model's prompts went out: routing, then judging a hop.
                String prompts = llm.requests().toString();
                assertThat(prompts).contains("choose one strategy", "You judge whether memories");
            }
        }
    }
}
