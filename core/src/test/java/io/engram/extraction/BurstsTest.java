package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Changes told as chat bursts them: the leaving in one sentence and the new value in the next
 * ("handed in my notice at lumen labs!! starting at Brightpath on the 3rd"), asides inside a
 * statement ("my fave band rn is …"), a new contact said without "my", an amount with the words of
 * when it holds; and the same shapes telling someone else's news, which change nothing.
 */
class BurstsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I work at Lumen Labs.|handed in my notice at lumen labs!! starting at Brightpath"
                        + " on the 3rd|Dana works at Brightpath.",
                "I work at Orbital.|last day at orbital was friday. Starting at Kestrel Systems"
                        + " next week|Dana works at Kestrel Systems.",
                "I drive a Ford Focus.|sold the focus last month. picked up a secondhand Kia Niro"
                        + "|Dana drives a Kia Niro.",
                "I drive a Honda Jazz.|traded the jazz in and got a used Toyota Yaris"
                        + "|Dana drives a Toyota Yaris.",
                "My email is sam.lee@outlook.com.|switched to samlee@proton.me, outlook is dead to"
                        + " me|Dana's email is samlee@proton.me.",
                "My phone number is 0412 555 118.|new number, it's 0412 555 902 now"
                        + "|Dana's phone number is 0412 555 902.",
                "my number is 555-0101|got a different number, 555-0177, old one doesn't work"
                        + " anymore|Dana's phone number is 555-0177.",
                "My phone number is (312) 555-0147.|Got a new number since I switched carriers."
                        + " It's (773) 555-0192 now|Dana's phone number is (773) 555-0192.",
                "I go to Anytime Fitness.|cancelled anytime fitness, signed up at a bouldering"
                        + " place called The Crag|Dana goes to The Crag.",
                "I bank with HSBC.|Starling is my bank now, closed hsbc last month"
                        + "|Dana banks with Starling.",
                "My favourite band is Radiohead.|ngl my fave band rn is Fontaines DC"
                        + "|Dana's favorite band is Fontaines DC.",
                "My favorite show is The Office.|severance has taken over as my fav show"
                        + "|Dana's favorite show is Severance.",
                "My rent is £950 a month.|rent's going up to 1020 from next month ugh"
                        + "|Dana's rent is £1020 a month.",
                "My rent is $1,400 a month.|rent went up to 1475 this month ugh"
                        + "|Dana's rent is $1,475 a month.",
                "I work at Lumen Labs.|quit lumen labs!! my sister works at Brightpath, might ask"
                        + " her|Dana no longer works at Lumen Labs.",
                "I work at Lumen Labs.|quit lumen labs!! might apply at Brightpath, idk"
                        + "|Dana no longer works at Lumen Labs.",
                "I work at Lumen Labs.|quit lumen labs today!! my sisters starting at Brightpath"
                        + " though|Dana no longer works at Lumen Labs.",
                "I bank with Lloyds.|closed my lloyds account, everything's with starling now"
                        + "|Dana banks with Starling.",
                "I work at Shopify.|left shopify last month. just started at stripe, loving it"
                        + "|Dana works at Stripe.",
                "I drive a Honda Civic.|traded the civic for a toyota prius last week"
                        + "|Dana drives a Toyota Prius.",
                "My gym is PureGym.|cancelled puregym, joined anytime fitness near my flat"
                        + "|Dana's gym is Anytime Fitness.",
                "My favourite food is pizza.|honestly over pizza. dumplings are my #1 now"
                        + "|Dana's favourite food is dumplings.",
                "I work the night shift as a nurse at St Mary's.|switched to days finally!! 8 to"
                        + " 8|Dana works the day shift.",
                "I live in Hackney.|we moved across town to Peckham, bigger flat"
                        + "|Dana moved across town to Peckham.",
                "My boyfriend is called Tom.|tom and i split up in june. been seeing this guy"
                        + " called rafi since, early days|Dana is dating Rafi.",
                "My boyfriend is Sam.|sam and i broke up last month. been seeing this guy theo"
                        + " for a few weeks|Dana is dating Theo.",
                "My girlfriend's name is Ava.|ava and i broke up, dating someone new, her name's"
                        + " Mia|Dana is dating Mia.",
                "I'm a junior dev at Monzo.|left monzo in may. im at a small agency called"
                        + " Pixelhaus now|Dana works at Pixelhaus.",
                "I'm in the local choir.|quit the choir, joined a running club instead"
                        + "|Dana is in a running club.",
                "My rent is £1,150 a month.|new lease signed, paying £1,300 now"
                        + "|Dana's rent is £1,300 a month.",
                "I weigh 92kg.|scale said 88.4kg this morning, buzzing|Dana's weight is 88.4kg.",
                "My salary is £32,000.|new contract came thru, £36.5k now"
                        + "|Dana's salary is £36.5k.",
                "I make $70k a year.|offer accepted!! 85k base from july"
                        + "|Dana's salary is $85k a year.",
                "My weight is 180 lbs.|172 lbs on the scale today|Dana's weight is 172 lbs.",
                "I volunteer at the animal shelter.|stopped volunteering at the shelter, no time"
                        + " anymore|Dana no longer volunteers at the animal shelter.",
            })
    void theNewValueIsReadWhereChatPutsIt(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I work at Lumen Labs.|my brother handed in his notice today!! he's starting at"
                        + " Brightpath soon",
                "I drive a Ford Focus.|my sister sold her focus and picked up a Kia Niro",
                "My email is sam.lee@outlook.com.|my mum's new email is jan.lee@proton.me, can"
                        + " you remember it",
                "My phone number is 0412 555 118.|my dad has a new number, it's 0412 555 777",
                "I go to Anytime Fitness.|my friend joined a bouldering place called The Crag,"
                        + " might try it",
                "I bank with HSBC.|thinking about switching to Starling, hsbc fees are annoying",
                "My rent is £1,150 a month.|my sister pays £1,300 for hers, mad",
                "My salary is £32,000.|the car cost £36.5k, insane",
                "My weight is 180 lbs.|lifted 172 lbs on bench today",
                "My rent is $1,200.|I now save $200 a month.",
                "I weigh around 80kg.|my husbands lost 10kg on his new diet, so smug",
                "I weigh around 80kg.|lost 5kg this month!! the running works",
                "My boyfriend is called Tom.|my sister and her bf split up, she's seeing a guy"
                        + " called rafi now",
                "I'm a junior dev at Monzo.|my flatmate left monzo in may, he's at a small agency"
                        + " called Pixelhaus now",
                "I'm in the local choir.|my mum joined a running club, she loves it",
                "I bank with Lloyds.|my sister closed her lloyds account, everything's with"
                        + " starling now",
                "I drive a Honda Civic.|my civic got scratched lol, got a rental for the week",
                "My favourite band is Radiohead.|ngl radiohead is still my fave band rn",
                "My salary is $70,000.|my partner got a raise!! 78k now",
                "I work at Orbital.|last day of the sprint at orbital was friday. starting on the"
                        + " new project next week",
            })
    void theSameShapesOfSomeoneElsesNewsChangeNothing(String before, String after) {
        supersedesNothing(before, after);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My cell phone number is (312) 555-0147.|Dana's phone number is (312) 555-0147.",
                "arctic monkeys are my fav band ever|Dana's favorite band is arctic monkeys.",
                "my budget is $3000 for the trip|Dana's budget is $3000 for the trip.",
                "tbh my favourite show rn is The Bear|Dana's favourite show is The Bear.",
                "my favourite drink is defo a negroni|Dana's favourite drink is a negroni.",
                "I weigh 80 kg right now.|Dana's weight is 80 kg.",
            })
    void aStatementIsReadWithoutItsAsides(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }
}
