package io.engram.extraction;

import static io.engram.extraction.DanaTells.T;
import static io.engram.extraction.DanaTells.facts;
import static io.engram.extraction.DanaTells.supersedesNothing;
import static io.engram.extraction.DanaTells.supersedesTheFirst;
import static io.engram.extraction.DanaTells.tell;
import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.statements.NamedInstead;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A message that names the old value of a statement and one other name, beside a word of change, in
 * words no reader knows: the other name is the value now.
 */
class NamedInsteadTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Leeds.|boxes everywhere. finally out of leeds!! keys to the new flat in"
                        + " Harrogate came today|Dana lives in Harrogate.",
                "My favourite game is Star Harbour.|uninstalled star harbour lol. Deepwell has"
                        + " eaten my whole weekend|Dana's favourite game is Deepwell.",
                "my dentist is Dr Ahmed in Croydon|never going back to ahmed after that bill."
                        + " registered with Smile Central on the high street"
                        + "|Dana's dentist is Smile Central.",
                // Before the departure the message also tells: the new value, not "no longer".
                "I bank with Northgate.|closed my northgate account, app was useless. everything's"
                        + " with Kite Bank now|Dana banks with Kite Bank.",
                // A title belongs to the name, at a sentence's start too.
                "My GP is Dr. Okoye.|Dr. Varga is my GP now, okoye retired|Dana's GP is Dr. Varga.",
                // An acronym is a name; a word no everyday vocabulary holds, typed in lower case
                // where a value stands, is one too.
                "My bank is HSBC.|HSBC kept charging me fees so ive shifted to ING, no fees"
                        + "|Dana banks with ING.",
                "My mobile network is Vodafone.|vodafone contract ended and I went sim only with"
                        + " giffgaff, saving a fortune|Dana's mobile network is Giffgaff.",
                "I live in Shoreditch.|random q in a sec but first, im in peckham now!! left"
                        + " shoreditch in march|Dana lives in Peckham.",
                // Where the new one is, left out: the one other name is it.
                "My hairdresser is Kelly at Snip & Sip.|kelly moved to cork so ive been seeing a"
                        + " lad called Ross in Ranelagh, savage job|Dana's hairdresser is Ross.",
                // An amount by its number, beside words of it, in the stored words.
                "my rent is $1200 a month|landlord hiked the rent again. 1340 from june"
                        + "|Dana's rent is $1340 a month.",
                "I weigh about 90kg.|stepped on the scales today... 83.2!! finally|Dana's weight"
                        + " is 83.2kg.",
            })
    void theOtherNameIsTheValueNow(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    /**
     * The name is where the old value went, someone else's news, a question, a value that stays, or
     * a pet's new friend.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My manager is Priya.|priya's own boss got replaced by a guy called Tom, drama",
                "I work at Halcyon Games.|halcyon just moved into a new office on Baker St, coffee"
                        + " is great",
                "I work at Acme.|still at acme, but the whole team moved to the Berlin office",
                "My phone is a Lumo 12.|what do u think of the new Quanta S4? lumo's fine",
                "My favourite show is Dry Creek.|everyone is obsessed with that new show"
                        + " Glasshouse. nah. dry creek forever",
                "I live in Leeds.|my sister finally moved out of leeds to York",
                "My dog is called Bear.|bear made a new friend at the park, a poodle called Coco",
                "My favourite band is Wet Leg.|saw wet leg with Jess last night, new album is"
                        + " great",
                // A name that says which team, or where the new one is.
                "I work at Amazon.|just switched teams at amazon, now on the AWS billing team",
                "Our vet is Paws & Claws.|paws & claws couldnt see him so we took him to the 24hr"
                        + " place in Eastwood, registered there now",
                // A thing typed after "the", however rare its word.
                "I work at Brightwave.|brightwave got bought out, same desk same job just a new"
                        + " logo on the lanyard lol",
                // A number that is no amount of it, or too far from it to be one.
                "my rent is $1200 a month|rent day again lol, 3 weeks till payday",
                "I weigh about 90kg.|did 40 mins on the bike, the scales can wait",
                "my rent is $1200 a month|paid the rent and a 45 quid phone bill, skint",
            })
    void theNameIsNoNewValue(String before, String after) {
        supersedesNothing(before, after);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // Lower case typed: a capitalised sentence start is a name.
                "uninstalled it lol. Deepwell has eaten my weekend|Deepwell",
                // Typed as written: a sentence's first word is not.
                "Big news. Joined Riverbend Fellowship last week.|Riverbend Fellowship",
                "finally got the keys to the flat in St. Albans|St. Albans",
            })
    void namesAreCapitalisedWordsOfTheMessage(String message, String name) {
        assertThat(NamedInstead.names("Dana", message)).containsExactly(name);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Leeds.|finally out of leeds!! new flat in Harrogate",
            })
    void theMessageIsReadOnlyWhenTheTurnStatesNothingElse(String before, String after) {
        // The statement the turn makes is read by its own words; the message is carried only
        // when the turn states nothing.
        assertThat(facts("I live in Harrogate now, finally out of leeds", T))
                .noneMatch(f -> f.tags().contains(NamedInstead.TAG));
        assertThat(facts(after, T)).anyMatch(f -> f.tags().contains(NamedInstead.TAG));
    }
}
