package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statements as chat types them: in lower case ("i live in chicago"), with a comment after them ("I
 * drive a Subaru so road trips are easy", "I have a parrot named Kiwi, she's loud") or a chat word
 * ("btw", "rn"). The statement is read and written as a name is written; the comment is not part of
 * it.
 */
class CasualStatementsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "i live in chicago, near wrigley|Dana lives in Chicago.",
                "i live in portland rn|Dana lives in Portland.",
                "i live in nyc|Dana lives in NYC.",
                "i live in san francisco with my bf|Dana lives in San Francisco.",
                "i work at acme corp|Dana works at Acme Corp.",
                "i work for google btw|Dana works at Google.",
                "i grew up in ohio|Dana grew up in Ohio.",
                "I drive a Subaru Outback so road trips are easy|Dana drives a Subaru Outback.",
                "I'm a paralegal, so long days lol|Dana is a paralegal.",
                "I have a parrot named Kiwi, she's loud|Dana has a parrot named Kiwi.",
                "I bank with Chase so I can't use that app|Dana banks with Chase.",
                "I'm allergic to peanuts so no satay for me|Dana is allergic to peanuts.",
                "I go to the Y now, honestly it's fine|Dana goes to the Y.",
                "i'm vegan, have been since high school|Dana is vegan.",
                "I live in Tucson, been here 6 years|Dana lives in Tucson.",
                "my email is kai.r@fastmail.com if u need it|Dana's email is kai.r@fastmail.com.",
                "fav movie is Heat, no contest|Dana's favorite movie is Heat.",
                "im on a strict paleo diet rn|Dana is on a strict paleo diet.",
                "I go to Crunch on 3rd street|Dana goes to Crunch.",
                "Rent is $1,400, brutal|Dana's rent is $1,400.",
                "Big Arsenal fan here lol|Dana is an Arsenal fan.",
                "I wear glasses, can't see a thing without them|Dana wears glasses.",
                "I have Netflix.|Dana has Netflix.",
                "I have an iPhone 14.|Dana's phone is an iPhone 14.",
                "I have a Honda Civic.|Dana drives a Honda Civic.",
                "I'm a sophomore at Rutgers, so many exams|Dana is a sophomore at Rutgers.",
                // "and" before another subject ends the statement.
                "my manager is Gavin and he micromanages everything|Dana's manager is Gavin.",
                "I work at Stripe and it is great|Dana works at Stripe.",
                "my boss is Karen and honestly she's fine|Dana's boss is Karen.",
                "I bank with Fernhill, have done since uni|Dana banks with Fernhill.",
                // Someone in a role is their name.
                "my manager is a guy called Trevor, he's fine|Dana's manager is Trevor.",
                "my therapist is called Ruth|Dana's therapist is Ruth.",
                "my boss is a woman named Priti|Dana's boss is Priti.",
                "I go to Crunch on 3rd street, the classes are so good|Dana goes to Crunch.",
            })
    void theStatementIsReadWithoutItsComment(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "i live in fear of spiders",
                "i work at night mostly",
                "i live in denial lol",
                "i work at home on fridays",
                "my dog is so cute when he sleeps",
                "I'm so tired of my job",
                "lol chicago pizza is overrated",
                "is spotify down for you",
                "moved over to youtube music, apple music was annoying",
            })
    void lowerCaseWordsThatNameNothingGiveNoStatement(String said) {
        // A hint may go to the planner ("moved over to youtube music" is a switch of service); it
        // is never stored as said, and TypedChangesTest shows it moves no one.
        assertThat(facts(said, T))
                .filteredOn(f -> !io.engram.extraction.statements.ValueHint.isHint(f.tags()))
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in the Mission district in SF.|we finally left the mission, living in noe"
                        + " valley now|Dana lives in Noe Valley.",
                "I live in Denver.|moved to raleigh last month, still unpacking"
                        + "|Dana moved to Raleigh in March 2026.",
                "I work at Oracle.|i work at stripe now|Dana works at Stripe.",
            })
    void aNewValueTypedInLowerCaseSupersedesTheOldOne(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "my gf Priya says hi|Dana's girlfriend is Priya.",
                "my hubby Dan snores like a truck|Dana's husband is Dan.",
                "My daughter Mia lost her first tooth!|Dana has a daughter named Mia.",
                "ugh my brother Sam ate all the leftovers|Dana has a brother named Sam.",
                "my cat Luna knocked my coffee over|Dana has a cat named Luna.",
            })
    void whoIsNamedInPassingIsStoredWhenNothingElseIs(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "my ex boyfriend Jake texted me",
                "my late husband Tom loved jazz",
                "my friend's dog Max is cute",
                "maybe my sister Ana will come",
                "my gf moved to Bristol last week, long distance now",
                "my mum got a new number, 555-201-9876",
            })
    void aPastOrSomeoneElsesRelationIsNotStored(String said) {
        assertThat(facts(said, T)).isEmpty();
    }
}
