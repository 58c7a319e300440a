package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * New values typed as chat types them, in lower case ("ported my number to mint mobile", "purple is
 * my fav color now"), written as the memory writes a value; and sentences of the same shape that
 * change nothing of the speaker's.
 */
class TypedChangesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My carrier is Verizon.|ported my number to mint mobile, half the price"
                        + "|Dana's carrier is Mint Mobile.",
                "My doctor is Dr. Patel.|new gp, seeing dr. alvarez from now on"
                        + "|Dana's doctor is Dr. Alvarez.",
                "My favorite show is Friends.|severance has replaced friends as my favorite show"
                        + "|Dana's favorite show is Severance.",
                "My favorite color is blue.|purple is my fav color now, not blue anymore"
                        + "|Dana's favorite color is purple.",
                "My gym is Equinox.|been going to crunch fitness since march, equinox was too"
                        + " pricey|Dana's gym is Crunch Fitness.",
                "I use an iPhone 13.|switched to a galaxy s23, bye apple"
                        + "|Dana's phone is a Galaxy S23.",
                "My favorite color is green.|Orange is my favorite color now, don't ask"
                        + "|Dana's favorite color is orange.",
                "My rent is $1,200 a month.|they raised my rent to 1350, unreal"
                        + "|Dana's rent is $1,350 a month.",
                "I bank with Chase.|closed my accounts and moved everything to Ally, no fees"
                        + "|Dana banks with Ally.",
                "My favorite book is Dune.|project hail mary has replaced it as my all time fav"
                        + "|Dana's favorite book is Project Hail Mary.",
                "My job title is Account Executive.|got promoted, im officially sales manager now"
                        + "|Dana's job title is Sales Manager.",
                "I'm on a paleo diet.|quit paleo, bread is back|Dana is no longer on a paleo diet.",
                "I have a beagle named Scout.|rip scout, 13 good years|Dana's beagle Scout died.",
                "My cat's name is Olive.|we had to rehome olive, the baby is allergic"
                        + "|Dana's cat Olive was rehomed.",
                "I drive a 2016 Mazda 3.|traded the mazda in last week, i take the train now"
                        + "|Dana no longer drives a 2016 Mazda 3.",
                "My husband's name is Tom.|tom and i are officially divorced as of last month"
                        + "|Dana got divorced from Tom.",
                "I'm learning Italian on Babbel.|gave up on italian, doing korean now"
                        + "|Dana is learning Korean.",
                "My rent is $1,400 a month for my place.|landlord raised rent to 1650, unreal"
                        + "|Dana's rent is $1650.",
                "My rent is $1,500 a month.|landlord bumped the rent to $1,700, cool cool"
                        + "|Dana's rent is $1,700 a month.",
                "I'm vegetarian.|been fully vegan since last spring, cheese was the hard part"
                        + "|Dana has been vegan since the spring of 2025.",
                "My phone number is 555-201-1234.|new number! 555-201-9876, save it"
                        + "|Dana's phone number is 555-201-9876.",
                "I'm single.|so i have a girlfriend now, her name is maya"
                        + "|Dana is dating Maya.",
                "My favorite band is Coldplay.|ok boygenius is my favorite band now, sorry"
                        + " coldplay|Dana's favorite band is Boygenius.",
            })
    void aValueTypedInLowerCaseSupersedesTheOldOne(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My carrier is Verizon.|my sister ported her number to mint mobile",
                "My doctor is Dr. Patel.|took my son to see dr. alvarez today",
                "My favorite color is blue.|my daughter says purple is her fav color now",
                "My gym is Equinox.|thinking of switching to crunch fitness next year",
                "I use an iPhone 13.|my wife switched to a galaxy s23",
                "My favorite show is Friends.|nothing has replaced friends as my favorite show",
                "My carrier is Verizon.|switched to decaf now, sleeping way better",
                "My favorite band is Coldplay.|new album alert: coldplay again lol",
                "My doctor is Dr. Patel.|went to the gym with dr. patel's nurse lol",
                "I live in Chicago.|moved over to youtube music, apple music was annoying",
                "My rent is $1,200 a month.|my sister's landlord raised her rent to 1350",
                "I bank with Chase.|my dad closed his accounts and moved everything to Ally",
                "My favorite book is Dune.|my son says project hail mary is his all time fav",
                "I'm on a paleo diet.|quit my job at the paleo cafe",
                "I have a beagle named Scout.|rip my sleep schedule lol",
                "I have a beagle named Scout.|my neighbor had to rehome scout, so sad",
                "I drive a 2016 Mazda 3.|traded stories in the car with my dad",
                "My rent is $1,500 a month.|my landlord bumped my sister's rent to $1,700",
                "My phone number is 555-201-1234.|my mum got a new number, 555-201-9876",
                "My email is dana@gmail.com.|my nan finally has email lol, nan.rose@yahoo.com",
                "I live in Leeds.|my gf moved to Bristol last week, long distance now",
            })
    void sentencesOfTheSameShapeLeaveTheValueCurrent(String before, String after) {
        supersedesNothing(before, after);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I make about 65k a year.|Dana's salary is 65k a year.",
                "I use an iPhone 12.|Dana uses an iPhone 12.",
                "I have a goldfish named Bubbles.|Dana has a goldfish named Bubbles.",
            })
    void aStatementIsReadAsTyped(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }
}
