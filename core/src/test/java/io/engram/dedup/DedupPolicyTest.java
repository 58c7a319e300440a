package io.engram.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.embedding.Embedder;
import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.extraction.CandidateFact;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Dedup decisions with real model similarities, as the pipeline computes them. */
class DedupPolicyTest {

    private static OnnxEmbedder embedder;
    private final DedupPolicy policy = new DedupPolicy();
    private final UUID existingId = UUID.randomUUID();

    @BeforeAll
    static void load() throws Exception {
        embedder = TestEmbedders.defaultModel();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private Decision decide(String existing, String candidate) {
        return decide(existing, MemoryType.SEMANTIC, candidate, MemoryType.SEMANTIC);
    }

    private Decision decide(
            String existing, MemoryType existingType, String candidate, MemoryType candidateType) {
        double similarity = Embedder.cosine(embedder.embed(existing), embedder.embed(candidate));
        CandidateFact fact =
                new CandidateFact(
                        candidateType,
                        candidate,
                        0.7,
                        List.of(),
                        List.of("t9"),
                        Instant.parse("2026-04-01T00:00:00Z"));
        return policy.decide(
                fact, List.of(new ExistingMemory(existingId, existingType, existing, similarity)));
    }

    @Test
    void newBudgetSupersedesTheOldOne() {
        Decision d =
                decide(
                        "Alice's budget for the Hawaii trip is $10,000.",
                        "Alice's budget for the Hawaii trip is $15,000.");
        assertThat(d).isInstanceOf(Decision.Supersede.class);
        assertThat(((Decision.Supersede) d).target()).isEqualTo(existingId);
        assertThat(d.reason()).contains("$10,000").contains("$15,000");
    }

    @Test
    void newBudgetSupersedesEvenWhenWordedDifferently() {
        Decision d =
                decide(
                        "Alice's budget for the Hawaii trip is $10,000.",
                        "Alice is raising Alice's Hawaii trip budget to $15,000 because flights got pricier.");
        assertThat(d)
                .as(d.reason() + " at " + d.similarity())
                .isInstanceOf(Decision.Supersede.class);
    }

    @Test
    void newAddressAndChangedPlanSupersede() {
        assertThat(decide("Bob lives in Boston.", "Bob moved to Denver last month."))
                .isInstanceOf(Decision.Supersede.class);
        assertThat(decide("Alice's favorite color is blue.", "Alice's favorite color is green."))
                .isInstanceOf(Decision.Supersede.class);
        assertThat(
                        decide(
                                "Alice plans to visit Maui in June.",
                                "Alice now plans to visit Maui in August."))
                .isInstanceOf(Decision.Supersede.class);
    }

    @Test
    void identicalContentIsANoop() {
        Decision d = decide("Alice loves hiking in the Alps.", "alice loves hiking in the alps");
        assertThat(d).isInstanceOf(Decision.Noop.class);
        assertThat(d.kind()).isEqualTo("noop");
    }

    @Test
    void closeRestatementIsAnUpdate() {
        Decision d =
                decide(
                        "Alice loves hiking in the Alps.",
                        "Alice really loves hiking in the Alps every summer.");
        assertThat(d).as(d.reason() + " at " + d.similarity()).isInstanceOf(Decision.Update.class);
        assertThat(d.similarity()).isGreaterThan(0.9);
    }

    @Test
    void differentPeopleOrUnrelatedFactsAreCreated() {
        assertThat(decide("Alice's sister is Kate.", "Alice's brother is Tom."))
                .isInstanceOf(Decision.Create.class);
        assertThat(
                        decide(
                                "Alice's budget for the Hawaii trip is $10,000.",
                                "Alice's dog Max is afraid of thunder."))
                .isInstanceOf(Decision.Create.class);
        assertThat(
                        decide(
                                "Alice's budget for the Hawaii trip is $10,000.",
                                "Alice's flights to Hawaii are booked for June 5."))
                .isInstanceOf(Decision.Create.class);
    }

    @Test
    void aPersonIsManyThingsAtOnce() {
        // Read on the LoCoMo conversations: each of these superseded the other.
        assertThat(
                        decide(
                                "Joanna is lactose intolerant.",
                                "Joanna is writing another movie script."))
                .isInstanceOf(Decision.Create.class);
        assertThat(decide("Tim is into classical music.", "Tim is learning German."))
                .isInstanceOf(Decision.Create.class);
        assertThat(
                        decide(
                                "Gina is passionate about dance and fashion.",
                                "Gina is working on their online store."))
                .isInstanceOf(Decision.Create.class);
        // A thing of theirs has one value.
        assertThat(decide("Tim's favorite book is Dune.", "Tim's favorite book is Harry Potter."))
                .isInstanceOf(Decision.Supersede.class);
    }

    @Test
    void onlyMemoriesOfTheSameTypeAreCompared() {
        Decision d =
                decide(
                        "Alice's budget for the Hawaii trip is $10,000.",
                        MemoryType.EPISODIC,
                        "Alice's budget for the Hawaii trip is $15,000.",
                        MemoryType.SEMANTIC);
        assertThat(d).isInstanceOf(Decision.Create.class);
    }

    @Test
    void episodesNeverSupersedeEachOther() {
        Decision d =
                decide(
                        "Conversation of Alice on 2026-03-15: Alice's budget for the Hawaii trip is $10,000.",
                        MemoryType.EPISODIC,
                        "Conversation of Alice on 2026-04-02: Alice's budget for the Hawaii trip is $12,000 now.",
                        MemoryType.EPISODIC);
        assertThat(d).isNotInstanceOf(Decision.Supersede.class);
    }

    @Test
    void thresholdsMustBeOrdered() {
        assertThatThrownBy(() -> new DedupThresholds(0.7, 0.9, 0.5))
                .hasMessageContaining("supersede_min <= related <= update");
    }
}
