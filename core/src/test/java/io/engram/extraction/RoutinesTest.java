package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a person does week in, week out, as they introduce themselves (an instrument, a habit, a
 * club, a commute, a shift, a faith), and how chat tells it ended or changed; the same shapes said
 * of chores, of someone else or of one day change nothing.
 */
class RoutinesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I play the cello.|Dana plays the cello.",
                "i play drums in a band|Dana plays drums in a band.",
                "I do pilates twice a week.|Dana does pilates twice a week.",
                "I go bouldering every saturday.|Dana goes bouldering every Saturday.",
                "I usually go rock climbing on weekends.|Dana goes rock climbing on weekends.",
                "I'm in a running club in Hackney.|Dana is in a running club in Hackney.",
                "I'm a member of the Rotary Club.|Dana is a member of the Rotary Club.",
                "I commute by train.|Dana commutes by train.",
                "I take the bus to work.|Dana commutes by bus.",
                "I bike to work.|Dana commutes by bike.",
                "I work the night shift.|Dana works the night shift.",
                "i work nights at the warehouse|Dana works the night shift at the warehouse.",
                "I'm Catholic.|Dana is Catholic.",
                "I'm a practising Muslim.|Dana is Muslim.",
                "I'm an atheist.|Dana is an atheist.",
                "I do yoga every Tuesday evening.|Dana does yoga every Tuesday evening.",
                "I play the viola in a youth orchestra.|Dana plays the viola in a youth orchestra.",
                "i catch the 12 bus to work, about 30 mins|Dana commutes by bus.",
                "I'm on the 7am shift at the depot.|Dana works the 7am shift at the depot.",
                "I'm a member of the Woodland Trust.|Dana is a member of the Woodland Trust.",
                "I'm in a quiz team that meets at the Crown.|Dana is in a quiz team.",
                "I work as a radiographer at Leeds General.|Dana works at Leeds General as a"
                        + " radiographer.",
                "I'm a sonographer.|Dana is a sonographer.",
                "my go-to snack is a cheese toastie|Dana's go-to snack is a cheese toastie.",
                "my favourite film of all time is Heat|Dana's favourite film is Heat.",
                "I smoke about ten cigarettes a day.|Dana smokes about ten cigarettes a day.",
                "My daughter goes to Hillcrest Primary.|Dana's daughter goes to Hillcrest Primary.",
                "I live with my grandparents.|Dana lives with their grandparents.",
                "I share a flat with my friend Zoe.|Dana lives with their friend Zoe.",
                "I work remotely full time.|Dana works from home full time.",
                "I'm using a Galaxy S22.|Dana uses a Galaxy S22.",
                "I'm subscribed to Spotify.|Dana has Spotify.",
                "I rent a flat in Leith.|Dana lives in Leith.",
                "I've got two rabbits, Pip and Mo.|Dana has two rabbits named Pip and Mo.",
                "i have a tabby called ziggy|Dana has a tabby named Ziggy.",
            })
    void aRoutineIsStoredAsTheSpeakersOwn(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I do laundry every Sunday.",
                "I go to work every day.",
                "I do my best every day.",
                "I'm in a good mood today.",
                "I'm in a hurry, the bus is late.",
                "My brother works the night shift.",
                "I took the bus to work today because my car is in the shop.",
                "I'm not a fan of the Catholic church's stance.",
                "I play the lottery every week.",
                "I'm an optimist.",
                "I'm a huge perfectionist.",
                "I'm a member of the team.",
                "I smoke weed sometimes.",
                "My son goes to bed at 8.",
                "I live with regret.",
                "I have a dog called him.",
            })
    void choresOthersAndOneDayStoreNoRoutine(String said) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I play the cello.|sold my cello last month, no time to practice anyway"
                        + "|Dana no longer plays the cello.",
                "I do pilates twice a week.|stopped doing pilates, my back is better now"
                        + "|Dana no longer does pilates twice a week.",
                "I go bouldering every Saturday.|stopped bouldering after the finger injury"
                        + "|Dana no longer goes bouldering every Saturday.",
                "I'm in a running club in Hackney.|left the running club, too early on sundays"
                        + "|Dana is no longer in a running club in Hackney.",
                "I'm a member of the Rotary Club.|quit the rotary club, not my crowd tbh"
                        + "|Dana is no longer a member of the Rotary Club.",
                "I commute by car.|sold the car, i bike to work now|Dana commutes by bike.",
                "I take the bus to work.|got an e-scooter so no more bus for me"
                        + "|Dana no longer commutes by bus.",
                "I work the night shift.|they moved me to the day shift finally"
                        + "|Dana works the day shift.",
                "i work nights at the warehouse|switched to days at the warehouse, feel human"
                        + " again|Dana works the day shift.",
                "I'm Catholic.|i'm not catholic anymore, haven't been to mass in years"
                        + "|Dana is no longer Catholic.",
                "I'm a practising Muslim.|converted to christianity last year, long story"
                        + "|Dana is Christian.",
                "I wear glasses.|got contacts, no more glasses for me|Dana no longer wears glasses.",
                "I play the piano.|I switched from piano to the cello.|Dana plays the cello.",
                "I smoke about ten cigarettes a day.|quit smoking in january!! 4 months clean"
                        + "|Dana no longer smokes about ten cigarettes a day.",
                "I'm using a Galaxy S22.|switched to an iPhone 15 last week, still getting used to"
                        + " it|Dana's phone is an iPhone 15.",
                "I live with my grandparents.|moved out of my grandparents' house into a flat in"
                        + " Leith|Dana no longer lives with their grandparents.",
            })
    void aChangeOfRoutineReplacesIt(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I play the cello.|my daughter sold her cello, she's into guitar now",
                "I do pilates twice a week.|my mum stopped doing pilates, says it hurts her knees",
                "I'm in a running club in Hackney.|a friend left the running club, drama lol",
                "I commute by car.|my car was in the shop so i took the bus today",
                "I work the night shift.|my husband got moved to the day shift",
                "I'm Catholic.|my best friend converted to judaism last year",
                "I take the bus to work.|the bus was late again, no more patience for this",
                "I play the cello.|I didn't sell my cello, no way",
                "I wear glasses.|no more contacts for me, back to glasses full time",
                "I smoke about ten cigarettes a day.|my dad quit smoking in january, so proud",
                "I'm subscribed to Spotify.|spotify cancelled my favourite podcast ugh",
                "I live with my grandparents.|my grandparents went to spain for the week",
                "My daughter goes to Hillcrest Primary.|my daughter's friend goes to Oak Park"
                        + " Primary",
            })
    void theSameWordsOfSomeoneElseOrOfOneDayChangeNothing(String before, String after) {
        supersedesNothing(before, after);
    }
}
