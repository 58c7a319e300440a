package io.engram.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.client.model.ApiKey;
import io.engram.client.model.ContextBlock;
import io.engram.client.model.ContextRequest;
import io.engram.client.model.KeyRequest;
import io.engram.client.model.ListQuery;
import io.engram.client.model.MaintenanceRun;
import io.engram.client.model.Memory;
import io.engram.client.model.MemoryEdit;
import io.engram.client.model.MemoryHistory;
import io.engram.client.model.MemoryPage;
import io.engram.client.model.RetentionRule;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.SearchResponse;
import io.engram.client.model.StoreDecision;
import io.engram.client.model.StoreRequest;
import io.engram.client.model.Turn;
import io.engram.client.model.TurnBatch;
import io.engram.client.model.TurnsAccepted;
import io.engram.local.LocalStack;
import io.engram.services.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every operation of the API through the client, against the whole local stack. */
class EngramClientIT {

    private static LocalStack stack;
    private static EngramClient admin;
    private static EngramClient client;
    private static ApiKey appKey;

    @BeforeAll
    static void start() throws Exception {
        stack = TestStacks.start("client-it", Map.of());
        admin = EngramClient.builder(stack.url(), stack.apiKey()).build();
        appKey =
                admin.createKey(
                        KeyRequest.of("local", List.of("read", "write"))
                                .in("default", "development")
                                .named("client-it"));
        client = EngramClient.builder(stack.url(), appKey.key()).build();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static SearchResponse awaitRecall(SearchRequest request) {
        AtomicReference<SearchResponse> r = new AtomicReference<>();
        Await.until(
                Duration.ofSeconds(60),
                () -> {
                    r.set(client.search(request));
                    return !r.get().memories().isEmpty();
                });
        return r.get();
    }

    @Test
    void turnsBecomeMemoriesThatARecallAndAContextFind() throws Exception {
        TurnsAccepted accepted =
                client.sendTurns(
                        TurnBatch.of(
                                        "ann",
                                        "s1",
                                        List.of(
                                                Turn.user(
                                                                "t1",
                                                                "I moved to Lisbon last spring"
                                                                        + " and I work as a"
                                                                        + " pharmacist there.")
                                                        .by("Ann"),
                                                Turn.assistant("t2", "Lisbon is lovely!")))
                                .endingSession());
        // the two turns and the end of the session
        assertThat(accepted.accepted()).isEqualTo(3);
        assertThat(accepted.requestId()).isNotBlank();

        SearchResponse r =
                awaitRecall(
                        SearchRequest.of("ann", "Where does Ann live?")
                                .forced()
                                .withStrategy("auto")
                                .withLimit(5));
        assertThat(r.memories()).isNotEmpty();
        assertThat(r.memories()).anySatisfy(m -> assertThat(m.content()).contains("Lisbon"));
        Memory first = r.memories().get(0);
        assertThat(first.id()).isNotBlank();
        assertThat(first.scoreBreakdown()).containsKey("semantic");
        assertThat(first.validFrom()).isNotNull();
        assertThat(r.strategy().requested()).isEqualTo("auto");
        assertThat(r.strategy().ran()).isIn("direct", "split", "chain");
        assertThat(r.hops()).isNotEmpty();
        assertThat(r.queries()).isNotEmpty();
        assertThat(r.degraded()).isEmpty();

        ContextBlock block =
                client.context(
                        new ContextRequest(
                                SearchRequest.of("ann", "Where does Ann live?").forced(), 300));
        assertThat(block.text()).contains("Lisbon");
        assertThat(block.memoryIds()).isNotEmpty();
        assertThat(block.tokens()).isPositive();
        assertThat(client.ready().path("status").asText()).isNotBlank();
        assertThat(client.writePlane().path("state").asText()).isNotBlank();
    }

    @Test
    void theLifeOfAStoredMemory() {
        String user = "bob-" + UUID.randomUUID();
        StoreDecision made =
                client.store(
                        StoreRequest.of(user, "Bob is allergic to peanuts.")
                                .withTags(List.of("health"))
                                .withMetadata(Map.of("source", "client-it")));
        assertThat(made.decision()).isEqualTo("create");
        assertThat(client.store(StoreRequest.of(user, "Bob is allergic to peanuts.")).decision())
                .isEqualTo("noop");
        for (String c :
                List.of(
                        "Bob plays the trumpet.",
                        "Bob lives in Oslo.",
                        "Bob's daughter is called Ida.")) {
            client.store(StoreRequest.of(user, c));
        }

        MemoryPage page = client.list(ListQuery.of(user).withPageSize(2), null);
        assertThat(page.memories()).hasSize(2);
        assertThat(page.nextCursor()).isNotNull();
        List<String> all = new ArrayList<>();
        client.listAll(ListQuery.of(user).withPageSize(2)).forEach(m -> all.add(m.content()));
        assertThat(all).hasSize(4).contains("Bob is allergic to peanuts.");

        Memory read = client.get(user, made.id());
        assertThat(read.content()).isEqualTo("Bob is allergic to peanuts.");
        assertThat(read.metadata()).containsEntry("source", "client-it");
        assertThat(read.tags()).containsExactly("health");
        Memory edited =
                client.edit(
                        user,
                        made.id(),
                        MemoryEdit.content("Bob is allergic to peanuts and shellfish."),
                        read.version());
        assertThat(edited.content()).contains("shellfish");
        assertThat(edited.version()).isGreaterThan(read.version());
        // An edit based on the version read before is refused: the memory changed since.
        EngramException stale =
                org.junit.jupiter.api.Assertions.assertThrows(
                        EngramException.Conflict.class,
                        () ->
                                client.edit(
                                        user,
                                        made.id(),
                                        MemoryEdit.tags(List.of("x")),
                                        read.version()));
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.requestId()).isNotBlank();

        MemoryHistory history = client.history(user, made.id());
        assertThat(history.events()).isNotEmpty();
        assertThat(history.memory().content()).contains("shellfish");

        client.delete(user, made.id());
        assertThatThrownBy(() -> client.get(user, made.id()))
                .isInstanceOf(EngramException.NotFound.class);
        assertThatThrownBy(() -> client.restore(user, UUID.randomUUID().toString()))
                .isInstanceOf(EngramException.NotFound.class);

        assertThat(client.forget(user, null).memoriesDeleted()).isGreaterThanOrEqualTo(3);
        assertThat(client.list(ListQuery.of(user), null).memories()).isEmpty();
    }

    @Test
    void refusalsNameTheFieldAndTheRequest() {
        EngramException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        EngramException.BadRequest.class,
                        () -> client.search(SearchRequest.of("ann", "hi").withLimit(500)));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.field()).isEqualTo("limit");
        assertThat(e.requestId()).isNotBlank();
        assertThatThrownBy(
                        () -> client.search(SearchRequest.of("ann", "x").withStrategy("sideways")))
                .isInstanceOfSatisfying(
                        EngramException.BadRequest.class,
                        b -> assertThat(b.field()).isEqualTo("strategy"));
        // A read/write key manages no keys.
        assertThatThrownBy(() -> client.listKeys(null))
                .isInstanceOf(EngramException.Forbidden.class);
    }

    @Test
    void administration() throws Exception {
        ApiKey temporary =
                admin.createKey(
                        KeyRequest.of("local", List.of("read"))
                                .in("default", "development")
                                .named("temporary"));
        assertThat(temporary.key()).isNotBlank();
        assertThat(admin.listKeys(null))
                .anySatisfy(
                        k -> {
                            assertThat(k.id()).isEqualTo(temporary.id());
                            assertThat(k.keyPrefix()).isNotBlank();
                            assertThat(k.scopes()).containsExactly("read");
                        });
        admin.revokeKey(temporary.id());
        EngramClient revoked = EngramClient.builder(stack.url(), temporary.key()).build();
        assertThatThrownBy(() -> revoked.search(SearchRequest.of("ann", "where do I live?")))
                .isInstanceOf(EngramException.Unauthorized.class);

        RetentionRule rule = admin.setRetentionRule(RetentionRule.of(null, "episodic", 30));
        assertThat(rule.id()).isNotBlank();
        assertThat(rule.keepDays()).isEqualTo(30);
        RetentionRule forever = admin.setRetentionRule(RetentionRule.of(null, "social", null));
        assertThat(forever.keepDays()).isNull();
        assertThat(admin.retentionRules())
                .extracting(RetentionRule::id)
                .contains(rule.id(), forever.id());
        admin.deleteRetentionRule(rule.id());
        admin.deleteRetentionRule(forever.id());
        assertThat(admin.retentionRules()).extracting(RetentionRule::id).doesNotContain(rule.id());

        MaintenanceRun run = admin.requestMaintenance("decay");
        assertThat(run.runId()).isNotBlank();
        assertThat(run.job()).isEqualTo("decay");
        String runId = run.runId();
        AtomicReference<MaintenanceRun> latest = new AtomicReference<>(run);
        Await.until(
                Duration.ofSeconds(120),
                () -> {
                    latest.set(admin.maintenanceRun(runId));
                    return latest.get().ended();
                });
        run = latest.get();
        assertThat(run.status()).isEqualTo("succeeded");
        assertThat(run.report()).isNotNull();
        assertThat(run.finishedAt()).isNotNull();
    }
}
