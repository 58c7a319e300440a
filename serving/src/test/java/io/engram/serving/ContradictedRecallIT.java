package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.Excerpts;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A memory no longer current, returned by recall, says in the words of what contradicts it what
 * replaced its value or that it ended, also when recall does not return that memory itself.
 */
class ContradictedRecallIT {

    private static final String DB = "contradicted_recall_it";

    @Test
    void aContradictedMemoryCarriesTheWordsOfWhatContradictsIt() throws Exception {
        try (ServingFixture f = new ServingFixture(DB, SharedServices.openSearch().url())) {
            String key = f.key("acme", "default", "prod", "read", "write");
            String old =
                    f.store(
                                    key,
                                    new JsonObject()
                                            .put("user_id", "zoe")
                                            .put("content", "Zoe drives a 2016 Skoda Fabia."))
                            .getString("id");
            String later =
                    f.store(
                                    key,
                                    new JsonObject()
                                            .put("user_id", "zoe")
                                            .put("type", "episodic")
                                            .put(
                                                    "content",
                                                    "Zoe: ugh, it finally died on the a1 lol")
                                            .put("tags", new JsonArray().add(Excerpts.TAG)))
                            .getString("id");
            // As the write plane marks it when a later turn tells the value changed.
            try (Connection c = SharedServices.postgres().connect(DB);
                    PreparedStatement st =
                            c.prepareStatement(
                                    "update memories set contradicted_by = ?,"
                                            + " consistency_score = 0.2 where id = ?")) {
                st.setObject(1, UUID.fromString(later));
                st.setObject(2, UUID.fromString(old));
                assertThat(st.executeUpdate()).isEqualTo(1);
            }
            f.refresh();

            ServingFixture.Reply r =
                    f.post(
                            "/v1/memories/search",
                            key,
                            new JsonObject()
                                    .put("user_id", "zoe")
                                    .put("query", "Which Skoda does Zoe drive?")
                                    .put("limit", 5));
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            JsonObject stale = null;
            for (Object o : r.json().getJsonArray("memories")) {
                JsonObject m = (JsonObject) o;
                if (m.getString("id").equals(old)) {
                    stale = m;
                } else {
                    assertThat(m.containsKey("contradicted_by_content")).isFalse();
                }
            }
            assertThat(stale).as(r.raw()).isNotNull();
            assertThat(stale.getBoolean("current")).isFalse();
            assertThat(stale.getString("contradicted_by")).isEqualTo(later);
            assertThat(stale.getString("contradicted_by_content"))
                    .isEqualTo("Zoe: ugh, it finally died on the a1 lol");

            // The tags of sentences the write plane reads and never stores are no memory's.
            for (String tag : new String[] {"value-hint", "change-mention", "value-named"}) {
                ServingFixture.Reply bad =
                        f.post(
                                "/v1/memories",
                                key,
                                new JsonObject()
                                        .put("user_id", "zoe")
                                        .put("content", "Zoe: the fabia died")
                                        .put("tags", new JsonArray().add("car").add(tag)));
                assertThat(bad.status()).as(bad.raw()).isEqualTo(400);
                assertThat(bad.raw()).contains("tags[1]").contains(tag);
                ServingFixture.Reply edit =
                        f.call(
                                "PATCH",
                                "/v1/memories/" + old + "?user_id=zoe",
                                key,
                                new JsonObject().put("tags", new JsonArray().add(tag)).encode());
                assertThat(edit.status()).as(edit.raw()).isEqualTo(400);
            }
        }
    }
}
