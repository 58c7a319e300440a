package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Endings chat tells without a verb of leaving ("rip the corolla", "let the gym lapse", "gone off
 * lattes", "karen left the company"), and the same words where nothing of the speaker's ends.
 */
class LapsesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I drive a 2011 Toyota Corolla.|rip the corolla 😭 gearbox finally went"
                        + "|Dana no longer drives a 2011 Toyota Corolla.",
                "I drive a Vauxhall Astra.|RIP my astra. she had a good run"
                        + "|Dana no longer drives a Vauxhall Astra.",
                "I'm a member of the Ramblers.|let the ramblers membership lapse, never went"
                        + "|Dana is no longer a member of the Ramblers.",
                "I'm a member of the Woodland Trust.|didnt renew the woodland trust this year, too"
                        + " pricey|Dana is no longer a member of the Woodland Trust.",
                "My favourite drink is an espresso martini.|gone off espresso martinis tbh"
                        + "|Dana's favourite drink is no longer an espresso martini.",
                "My main game is Stardew Valley.|shelved stardew valley, too cosy for me now"
                        + "|Dana's main game is no longer Stardew Valley.",
                "My daughter goes to Greenfield Primary.|we took mia out of greenfield after"
                        + " christmas|Dana's daughter no longer goes to Greenfield Primary.",
                "I'm on the paleo diet.|paleo is dead to me lol|Dana is no longer on the paleo"
                        + " diet.",
                "I play the trumpet.|haven't touched the trumpet in months|Dana no longer plays"
                        + " the trumpet.",
                "I support Everton.|done with everton fr, season ticket's gone"
                        + "|Dana no longer supports Everton.",
                "My manager is Priya Shah.|priya left the company 😢|Dana's manager is no longer"
                        + " Priya Shah.",
                "My dentist is Dr. Moreno.|dr moreno retired!! gutted"
                        + "|Dana's dentist is no longer Dr. Moreno.",
                "My boss is Howard.|howard got let go lol, chaos|Dana's boss is no longer"
                        + " Howard.",
                "My therapist is Dr. Lind.|ugh, dr lind retired last month"
                        + "|Dana's therapist is no longer Dr. Lind.",
                "My GP is Dr. Mensah.|dr mensah retired, they've put me with dr quinn"
                        + "|Dana's GP is Dr. Quinn.",
                "My dentist is Dr. Ortiz.|dr ortiz retired!! seeing dr bello at the same place"
                        + "|Dana's dentist is Dr. Bello.",
                "My GP is Dr. Okafor.|dr okafor retired 😢 the new dr seems nice"
                        + "|Dana's GP is no longer Dr. Okafor.",
            })
    void anEndingInChatWordsEndsTheValueItNames(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I drive a Toyota Corolla.|rip to my neighbour's corolla, someone keyed it",
                "I drive a Toyota Corolla.|rip my favourite jumper, the dog got it",
                "My manager is Priya.|priya's manager left today, total chaos",
                "My manager is Priya.|priya left early today so we all went to the pub",
                "My manager is Priya.|priya left for a conference in lisbon",
                "My boss is Howard.|howard's boss just quit lol",
                "My boyfriend is Sam.|sam left the house at 6 for his shift",
                "My dentist is Dr. Moreno.|dr moreno was off so i saw someone else today",
                "I'm a member of the Ramblers.|might let the ramblers lapse, idk",
                "I'm a member of the Ramblers.|renewed the ramblers for another year",
                "I support Everton.|never done with everton, through thick and thin",
                "I play the trumpet.|haven't touched the trumpet since tuesday, busy week",
                "I play the trumpet.|my sister hasn't touched her trumpet in months",
                "My favourite drink is an espresso martini.|my bf has gone off espresso martinis",
                "My daughter goes to Greenfield Primary.|took mia out of greenfield early for the"
                        + " dentist",
                "I'm on the paleo diet.|my mum says paleo is dead to her lol",
                "I live with my friend Jo.|jo moved out of her old place years ago",
                "My main game is Stardew Valley.|my brother shelved stardew valley",
            })
    void theSameWordsEndNothingOfTheSpeakers(String before, String after) {
        supersedesNothing(before, after);
    }
}
