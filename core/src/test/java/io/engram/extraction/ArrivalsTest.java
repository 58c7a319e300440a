package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A new home, job, partner or thing told by arriving in it or by leaving the old one, not in the
 * words of a statement: "finally all unpacked in Denver", "my new manager at Meta is great", "today
 * was my last day at google", "upgraded to the iPhone 15 Pro". And the same words of a trip, of
 * someone else's news, of a place one stays or an office one leases, which change nothing.
 */
class ArrivalsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Boston.|finally all unpacked in Denver!! the apartment is tiny"
                        + "|Dana lives in Denver.",
                "I live in Boston.|We are officially Austin people now|Dana lives in Austin.",
                "I live in Boston.|first night in our new place in Seattle, so weird"
                        + "|Dana lives in Seattle.",
                "I live in Boston.|just got the keys to our house in Raleigh|Dana lives in Raleigh.",
                "I live in Boston.|officially a Denver resident, got my license switched today"
                        + "|Dana lives in Denver.",
                "I work at Google.|my new manager at Meta is great|Dana works at Meta.",
                "I work at Google.|just finished orientation at Pfizer|Dana works at Pfizer.",
                "I work at Google.|first week at Stripe done, the new job is great"
                        + "|Dana works at Stripe.",
                "I work at Google.|today was my last day at google"
                        + "|Dana no longer works at Google.",
                "My girlfriend is Priya.|me and priya broke up, it's for the best"
                        + "|Dana broke up with Priya.",
                "My girlfriend is Priya.|been seeing someone new, her name's Leila"
                        + "|Dana is dating Leila.",
                "I drive a Honda Civic.|sold the honda, bought a Tesla Model Y"
                        + "|Dana drives a Tesla Model Y.",
                "My phone is an iPhone 12.|upgraded to the iPhone 15 Pro, camera is insane"
                        + "|Dana's phone is an iPhone 15 Pro.",
                "My therapist is Dr. Lee.|started seeing a new therapist, dr. adams"
                        + "|Dana's therapist is Dr. Adams.",
                "I work at Figma.|oh yeah I left figma, I'm at Canva now, way more chill"
                        + "|Dana works at Canva.",
                "My gym is Planet Fitness.|cancelled planet fitness and joined Brooklyn Boulders, climbing"
                        + " >>> treadmills"
                        + "|Dana's gym is Brooklyn Boulders.",
                "I drive a Honda Civic.|sold the civic and bought a Subaru Outback"
                        + "|Dana drives a Subaru Outback.",
                "My carrier is Verizon.|left verizon, went with Mint Mobile"
                        + "|Dana's carrier is Mint Mobile.",
                "I have Netflix.|cancelled netflix, too expensive|Dana no longer has Netflix.",
                "I have a Honda Civic.|sold the civic, bought a Kia EV6|Dana drives a Kia EV6.",
                "I drive a Honda Civic.|ugh my car got totaled on the highway, everyone is ok"
                        + "|Dana no longer drives a Honda Civic.",
                "I'm a sophomore at UCLA.|graduated from ucla!! finally done"
                        + "|Dana is no longer a sophomore at UCLA.",
                // Left for a plan, not for another employer.
                "I work at Figma.|quit figma to travel with Sam|Dana no longer works at Figma.",
                // Leaving with a place after it: no employer of that name.
                "I work at Figma.|left figma, taking some time off in Lisbon"
                        + "|Dana no longer works at Figma.",
                "My favorite movie is Heat.|saw Past Lives last night and it's replaced heat as"
                        + " my favorite movie|Dana's favorite movie is Past Lives.",
                "My favorite season is summer.|I've decided autumn is my favourite season."
                        + "|Dana's favourite season is autumn.",
                "My weight is 180 pounds.|down to 172 as of this morning!!"
                        + "|Dana's weight is 172 pounds.",
                "My username is skyler_waves.|I changed my handle to skylerbuilds."
                        + "|Dana's handle is skylerbuilds.",
            })
    void arrivingSomewhereNewSupersedesTheOldValue(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Boston.|first night in Rome, so jet lagged lol",
                "I live in Boston.|my sister's new apartment in Denver is so cute",
                "I live in Boston.|helped my brother get the keys to his house in Raleigh",
                "I live in Boston.|officially a Marvel fan now after that movie",
                "I live in Boston.|the Chicago locals were so friendly on our trip",
                "I live in Boston.|signed the lease for our office in Austin today",
                "I live in Boston.|thinking about a new place in Seattle next year",
                "I live in Boston.|my parents are officially Florida people now lol",
                "I live in Boston.|we're staying at a new place in Miami for the weekend",
                "I work at Google.|first day at Disneyland was magical!!",
                "I work at Google.|onboarding my new intern at Google today",
                "I work at Google.|my friend's new manager at Meta sounds awful",
                "I work at Google.|my husband's first day at Stripe went great",
                "I work at Google.|day one at Coachella, so hot",
                "I work at Google.|had a call with my new manager at Google",
                "I work at Google.|my friend's last day at google was friday",
                "My girlfriend is Priya.|me and priya broke the vase lol",
                "My girlfriend is Priya.|my cousin is seeing someone new, her name's Leila",
                "My phone is an iPhone 12.|my mom upgraded to the iPhone 15 Pro",
                "I drive a Honda Civic.|my brother bought a Tesla Model Y",
                "I work at Google.|I got an offer from Netflix but I'm staying at Google",
                "I work at Figma.|left figma, my sister is at Canva now",
                "My weight is 180 pounds.|down to 2 cups of coffee a day",
                "I drive a Honda Civic.|sold the civic, my sister bought a Subaru",
                "I drive a Honda Civic.|my sister's car got totaled, she's ok",
                "I go to UCLA.|my brother graduated from UCLA",
            })
    void theSameWordsOfATripOrSomeoneElseLeaveTheValueCurrent(String before, String after) {
        supersedesNothing(before, after);
    }
}
