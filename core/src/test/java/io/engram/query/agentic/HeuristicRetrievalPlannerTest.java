package io.engram.query.agentic;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.query.agentic.RetrievalPlanner.Evidence;
import io.engram.query.agentic.RetrievalPlanner.Hop;
import io.engram.query.agentic.RetrievalPlanner.Route;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeuristicRetrievalPlannerTest {

    private final HeuristicRetrievalPlanner planner = new HeuristicRetrievalPlanner();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // one subject, one question
                "What is Caroline's favourite colour?|DIRECT",
                "When did Caroline go to the support group?|DIRECT",
                "Where do I work?|DIRECT",
                "what did I say about my diet|DIRECT",
                "Is Melanie allergic to anything?|DIRECT",
                "What does Maria do for a living?|DIRECT",
                // two subjects, or two questions
                "What do Caroline and Melanie both like to do?|SPLIT",
                "Which city have both Jean and John visited?|SPLIT",
                "What do Jon and Gina have in common?|SPLIT",
                "When did Jon lose his job, and what business did he start?|SPLIT",
                // a set of things
                "What activities does Melanie partake in?|CHAIN",
                "What books has Melanie read?|CHAIN",
                "How many times has Melanie gone to the beach?|CHAIN",
                "What kinds of food does Tim cook?|CHAIN",
                "In what ways is Caroline helping the community?|CHAIN",
                // a relation to follow
                "What is the current company of the spouse of the CEO of Acme?|CHAIN",
                "Where does Alice's husband work?|CHAIN",
                "What do Melanie's kids like?|CHAIN",
                // relative to another event
                "When did Melanie go on a hike after the road trip?|CHAIN",
                "What did John do before moving to Boston?|CHAIN",
            })
    void routesByTheQuestionsShape(String question, RetrievalStrategy expected) {
        Route route = planner.routeNow(question, RetrievalStrategy.AUTO);
        assertThat(route.strategy()).as(route.reason()).isEqualTo(expected);
        assertThat(route.queries()).first().isEqualTo(question);
    }

    @Test
    void aSplitSearchesTheWholeQuestionThenOnePartPerSubject() {
        Route route =
                planner.routeNow(
                        "What subject have Caroline and Melanie both painted?",
                        RetrievalStrategy.AUTO);
        assertThat(route.queries())
                .containsExactly(
                        "What subject have Caroline and Melanie both painted?",
                        "What subject have Caroline painted?",
                        "What subject have Melanie painted?");
    }

    @Test
    void theSecondOfTwoQuestionsKeepsTheNamesOfTheFirst() {
        Route route =
                planner.routeNow(
                        "When did Jon lose his job and what business did he start?",
                        RetrievalStrategy.AUTO);
        assertThat(route.queries())
                .containsExactly(
                        "When did Jon lose his job and what business did he start?",
                        "When did Jon lose his job",
                        "what business did he start? (Jon)");
    }

    @Test
    void aRequestedStrategyRunsWhateverTheShape() {
        assertThat(
                        planner.routeNow("What books has Melanie read?", RetrievalStrategy.DIRECT)
                                .strategy())
                .isEqualTo(RetrievalStrategy.DIRECT);
        Route oneSubject = planner.routeNow("Where do I work?", RetrievalStrategy.SPLIT);
        assertThat(oneSubject.strategy()).isEqualTo(RetrievalStrategy.SPLIT);
        assertThat(oneSubject.queries()).containsExactly("Where do I work?");
        assertThat(planner.routeNow("Where do I work?", RetrievalStrategy.CHAIN).strategy())
                .isEqualTo(RetrievalStrategy.CHAIN);
    }

    @Test
    void theNextHopSearchesTheNamesTheFirstOneFound() {
        String question = "Where does Alice's husband work?";
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(new Evidence("Alice's husband is Bob Smith.", 1.0)));
        assertThat(hop.sufficient()).isFalse();
        assertThat(hop.queries()).hasSize(1);
        assertThat(hop.queries()).containsExactly("Alice Bob Smith");
    }

    @Test
    void aPlaceOrDateTheQuestionDoesNotNameIsFollowed() {
        String question = "Where did Caroline move from?";
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(
                                new Evidence(
                                        "Caroline: Hey Mel! I've known these friends for 4 years,"
                                                + " since I moved from my home country.\n"
                                                + "Melanie: That's lovely, Caroline.",
                                        1.0)));
        assertThat(hop.queries()).hasSize(1);
        String next = hop.queries().get(0);
        // The speaker spoken to ("Mel") and the other speaker are not what the question asks.
        assertThat(next).startsWith("Caroline ").doesNotContain("Mel ", "Melanie");
        assertThat(next).contains("home", "country");
    }

    @Test
    void evidenceHoldingEveryTopicWordSuffices() {
        String question = "Where does Alice work?";
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(new Evidence("Alice works at Initech in Austin.", 1.0)));
        assertThat(hop.sufficient()).isTrue();
        assertThat(hop.queries()).isEmpty();
    }

    @Test
    void topicWordsSpreadOverTwoMemoriesAreNotAnAnswer() {
        String question = "Where does Alice's husband work?";
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(
                                new Evidence("Alice's husband is Bob Smith.", 1.0),
                                new Evidence("Alice works as a nurse.", 0.9)));
        assertThat(hop.sufficient()).isFalse();
        assertThat(hop.queries().get(0)).contains("Bob", "Smith");
    }

    @Test
    void aQuestionForSeveralThingsIsNeverSatisfiedByOne() {
        String question = "What instruments does Melanie play?";
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(new Evidence("Melanie plays the clarinet in an orchestra.", 1.0)));
        assertThat(hop.sufficient()).isFalse();
    }

    @Test
    void nothingFoundOrNothingNewStopsTheChain() {
        String question = "Where does Alice's husband work?";
        assertThat(planner.nextNow(question, List.of(question), List.of()).queries()).isEmpty();
        Hop hop =
                planner.nextNow(
                        question,
                        List.of(question),
                        List.of(new Evidence("Alice's husband.", 1.0)));
        assertThat(hop.sufficient()).isFalse();
        assertThat(hop.queries()).isEmpty();
    }
}
