package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.engram.dedup.ChangePlanner;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.UserMemories;
import io.engram.memory.MemoryChange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Leaving a value behind in words that name no new one, or a new one no reader knows: "quit
 * salesforce", "cancelled my planet fitness membership", "Sam and I split". The one memory whose
 * value was left is ended in its own words, so it is no longer returned as current.
 */
class DeparturesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I work at Salesforce.|quit salesforce. starting somewhere new on monday"
                        + "|Dana no longer works at Salesforce.",
                "I go to Planet Fitness.|cancelled my planet fitness membership, climbing >>> "
                        + "treadmills|Dana no longer goes to Planet Fitness.",
                "I bank with Chase.|closed my chase account last week|Dana no longer banks with Chase.",
                "My bank is Barclays.|Closed the Barclays account.|Dana's bank is no longer Barclays.",
                "i drive a 2012 honda civic|traded in the civic!! so happy"
                        + "|Dana no longer drives a 2012 honda civic.",
                "I live in Boston.|moved out of boston in march, still figuring out where to settle"
                        + "|Dana no longer lives in Boston.",
                "I live in the Mission district in SF.|we finally left the mission, couch surfing"
                        + " now|Dana no longer lives in the Mission district in SF.",
                "My partner is Sam.|update on the love life front: Sam and I split in april"
                        + "|Dana broke up with Sam.",
                "My wife's name is Elena.|elena and i split up in the spring"
                        + "|Dana broke up with Elena.",
                "I'm vegetarian.|gave up on being vegetarian, bacon won|Dana is no longer vegetarian.",
                "I support Arsenal.|After this season I'm done with Arsenal."
                        + "|Dana no longer supports Arsenal.",
                "I use Spotify.|cancelled spotify lol|Dana no longer uses Spotify.",
                "I live in Boston.|Seattle now! moved from boston for the new job"
                        + "|Dana no longer lives in Boston.",
                "I work at Acme Corp.|left acme last month, freelancing now"
                        + "|Dana no longer works at Acme Corp.",
            })
    void leavingEndsTheOneValueItNames(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I work at Salesforce.|thinking about quitting salesforce",
                "I work at Salesforce.|my sister quit salesforce last year",
                "I work at Salesforce.|I almost quit salesforce today lol",
                "I work at Salesforce.|never gonna leave salesforce",
                "I work at Salesforce.|left my laptop at salesforce",
                "I go to Planet Fitness.|should I cancel my planet fitness membership?",
                "I live in Boston.|I left Boston for a week, back on sunday",
                "I live in Boston.|left my umbrella in boston",
                "I live in Boston.|when I was a kid we moved out of Chicago",
                "I bank with Chase.|my husband closed his chase account",
                "I use Spotify.|I didn't cancel spotify after all",
                "My partner is Sam.|Sam and I went to the beach",
                "I play guitar.|I stopped playing guitar for a bit because of my wrist",
                "I support Arsenal.|I'm not done with Arsenal yet",
                "I use Spotify.|dropped off a cake at the spotify office",
            })
    void leavingThatIsNotTheSpeakersOrNotDoneEndsNothing(String before, String after) {
        Told told = tell(before, T, after, T.plus(Duration.ofDays(30)));
        assertThat(told.planned())
                .extracting(p -> p.decision().kind())
                .as(after + " gave " + contents(told.planned()))
                .doesNotContain("supersede");
    }

    @Test
    void aNewValueToldWithTheLeavingReplacesTheOldOneItself() {
        Told told =
                tell(
                        "I drive a Civic.",
                        T,
                        "Sold the Civic. I drive a Tacoma truck now.",
                        T.plus(Duration.ofDays(30)));
        assertThat(contents(told.planned()))
                .contains("Dana drives a Tacoma truck.")
                .noneMatch(c -> c.contains("no longer"));
    }

    @Test
    void aValueToldAfterTheLeavingReplacesItsEnd() {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        Instant at = T;
        int axis = 0;
        List<ChangePlanner.Planned> last = List.of();
        for (String said :
                List.of(
                        "I live in Boston.",
                        "moved out of boston in march, still figuring out where to settle",
                        "I live in Seattle.")) {
            List<CandidateFact> facts = facts(said, at);
            last =
                    planner.plan(
                            DANA,
                            Optional.of("s" + axis),
                            "conversation",
                            facts,
                            axes(facts, axis),
                            known,
                            at);
            axis += facts.size();
            at = at.plus(Duration.ofDays(30));
        }
        ChangePlanner.Planned seattle =
                last.stream()
                        .filter(p -> p.change().memory().content().equals("Dana lives in Seattle."))
                        .findFirst()
                        .orElseThrow();
        assertThat(((MemoryChange.Superseded) seattle.change()).old().content())
                .isEqualTo("Dana no longer lives in Boston.");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Dana goes to Planet Fitness.|Dana no longer goes to Planet Fitness.|Planet Fitness",
                "Dana uses Spotify.|Dana no longer uses Spotify.|Spotify",
                "Dana is learning Spanish on Duolingo."
                        + "|Dana is no longer learning Spanish on Duolingo.|Spanish on Duolingo",
                "Dana plays guitar.|Dana no longer plays guitar.|guitar",
                "Dana uses Spotify.|Dana no longer uses Tidal.|",
                "Dana uses Spotify.|Dana uses Tidal.|",
            })
    void theValueAnEndedStatementQuotesIsWhatFollowsItsVerb(
            String old, String ended, String value) {
        // What the excerpt and summary that told the old statement are found by.
        assertThat(io.engram.extraction.statements.NoLonger.leftValue(old, ended))
                .isEqualTo(Optional.ofNullable(value));
    }
}
