package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Changes told as chat tells them: without a subject ("Traded in the Civic for a Tesla"), by
 * leaving a provider for another ("Cancelled Spotify, I'm on Apple Music"), by ending a
 * relationship, by retiring a thing. And sentences in the same words that change nothing, which
 * must neither supersede a value nor be stored as a change.
 */
class ChatPhrasedChangesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I drive a Honda Civic.|Traded in the Civic for a Tesla Model 3."
                        + "|Dana drives a Tesla Model 3.",
                "I use Spotify.|Cancelled Spotify, I'm on Apple Music these days."
                        + "|Dana uses Apple Music.",
                "I bank with Chase.|Closed my Chase account and moved everything to Ally."
                        + "|Dana banks with Ally.",
                "I'm learning Spanish.|Gave up on Spanish, I'm doing Japanese on Duolingo now."
                        + "|Dana is learning Japanese on Duolingo.",
                "I play guitar in a band called The Foxes.|I left The Foxes and joined a new band,"
                        + " Night Owls.|Dana plays guitar in a band called Night Owls.",
                "My girlfriend is called Priya.|Priya and I broke up last month."
                        + "|Dana broke up with Priya in March 2026.",
                "My husband's name is Mark.|Mark and I finalized the divorce in June."
                        + "|Dana got divorced from Mark in June 2026.",
                "My best friend is Jess.|Jess and I drifted apart; Kayla is my closest friend these"
                        + " days.|Dana's best friend is Kayla.",
                "I live in Denver.|Just signed a lease in Austin, so Texas is home now."
                        + "|Dana moved to Austin.",
                "My laptop is a ThinkPad.|Work gave me a MacBook Pro, the ThinkPad is retired."
                        + "|Dana's laptop is a MacBook Pro.",
                "My favorite band is Radiohead.|These days Arctic Monkeys are my number one band."
                        + "|Dana's favorite band is Arctic Monkeys.",
                // The time a change is told with is when it began, not part of the value.
                "I work at Oracle as a data engineer.|Started my new gig at Stripe this week."
                        + "|Dana works at Stripe.",
                "I'm a junior developer.|Got promoted to senior developer this month."
                        + "|Dana works as a senior developer.",
                "I'm single.|I've been seeing someone named Leah since.|Dana is dating Leah.",
                "I live in an apartment in Brooklyn.|We closed on a house in Queens last week."
                        + "|Dana lives in Queens.",
                "I'm dating Chris.|Chris proposed last night and I said yes!"
                        + "|Dana is engaged to Chris.",
                "My hair is brown.|I dyed my hair red!|Dana's hair is red.",
                "My budget for the wedding is $20,000.|We decided to cap the wedding at $15k."
                        + "|Dana's budget for the wedding is $15k.",
                "My weight is 180 pounds.|I'm down to 165 pounds.|Dana's weight is 165 pounds.",
                "I'm 29.|Just celebrated my 30th!|Dana's age is 30.",
                "My salary is $60,000.|They bumped me up to 68k after my review."
                        + "|Dana's salary is $68k.",
                "My favorite author is Stephen King.|These days I mostly read Brandon Sanderson,"
                        + " he's my favorite author.|Dana's favorite author is Brandon Sanderson.",
                "My favorite coffee shop is Blue Bottle.|Found a new favorite coffee shop:"
                        + " Sightglass.|Dana's favorite coffee shop is Sightglass.",
                "My cell is 415-555-0101.|Text me at 415-555-0199, I changed carriers and got a new"
                        + " number.|Dana's phone number is 415-555-0199.",
                "I'm vegan.|I started eating fish again, so pescatarian now.|Dana is pescatarian.",
                "I'm engaged to Tom.|Tom and I called off the engagement."
                        + "|Dana is no longer engaged to Tom.",
                "My coach is Mike.|I have a new running coach, Sarah.|Dana's running coach is Sarah.",
                "My favorite team is the Bulls.|I'm all about the Knicks these days, they're my"
                        + " favorite team.|Dana's favorite team is the Knicks.",
                "My salary is $90k.|New job pays $110k.|Dana's salary is $110k.",
                "My partner is Sam.|Sam and I got hitched in Vegas!"
                        + "|Dana got married to Sam in Vegas.",
                // A name with an ampersand is one name; an adverb or a time is not the value.
                "My phone carrier is Sprint.|Switched my phone carrier to AT&T last month."
                        + "|Dana's phone carrier is AT&T.",
                "My favorite store is Zara.|H&M is my favorite store now."
                        + "|Dana's favorite store is H&M.",
                "My favorite book is Dune.|Piranesi officially dethroned Dune as my favorite book."
                        + "|Dana's favorite book is Piranesi.",
                "My rent is $2,100.|Our rent jumped to $2,300 this year.|Dana's rent is $2,300.",
                // Chat as it is typed: lower case, no subject, an emoji for a comma.
                "I drive a 2014 Toyota Camry.|traded in the camry, driving a Kia Telluride now"
                        + "|Dana drives a Kia Telluride.",
                "My phone is an iPhone 11.|my iphone died so I got a Galaxy S23"
                        + "|Dana's phone is a Galaxy S23.",
                "My rent is $1,200 a month.|landlord raised the rent, it's $1,350 a month now"
                        + "|Dana's rent is $1,350 a month.",
                "I'm a nurse.|left nursing, working as a paralegal now|Dana works as a paralegal.",
                "I live in Toronto.|Montreal's home now, left Toronto in May|Dana lives in Montreal.",
                "I'm single.|not single anymore 😊 dating a guy named Omar|Dana is dating Omar.",
                "My roommate is Chris.|Chris moved out. new roommate is Priyanka, seems nice"
                        + "|Dana's roommate is Priyanka.",
                "My favorite game is Zelda.|elden ring is my favorite game now, nothing comes close"
                        + "|Dana's favorite game is Elden Ring.",
                "My favorite food is sushi.|honestly ramen is my fav food now"
                        + "|Dana's favorite food is ramen.",
                "My email is a@b.com.|new email btw: c@d.com, dont use the old one"
                        + "|Dana's email is c@d.com.",
                "I weigh 180 pounds.|down to 170 lbs after the summer|Dana's weight is 170 lbs.",
                "I have two kids.|baby number 3 arrived last tuesday!!|Dana has 3 kids.",
                "My carrier is Verizon.|ported my number to T-Mobile, verizon was a ripoff"
                        + "|Dana's carrier is T-Mobile.",
                "I bank with Wells Fargo.|moved all my money over to Capital One, wells fargo fees"
                        + " were insane|Dana banks with Capital One.",
                // A pet or a relative gone, no new one named: the memory ends in its words.
                "I have a dog named Rocky.|Rocky died in April, it's been rough."
                        + "|Dana's dog Rocky died in April 2026.",
                "My dog is named Biscuit.|Biscuit passed away in March. We haven't gotten another"
                        + " dog.|Dana's dog Biscuit passed away in March 2026.",
                "My cat is named Oreo.|Oreo ran away last spring and we adopted a kitten named"
                        + " Pepper.|Dana's cat Oreo ran away in the spring of 2025.",
                "you can reach me at dana.k@gmail.com|Please use dana.kowalski@proton.me going"
                        + " forward, I deleted my gmail.|Dana's email is dana.kowalski@proton.me.",
                // A sentence ends after a number too, when the next starts in lower case.
                "my number is 555-201-0142|new number: 555-201-0199. the old one is disconnected"
                        + "|Dana's phone number is 555-201-0199.",
                "My doctor is Dr. Lee.|My GP is Dr. Shah now.|Dana's GP is Dr. Shah.",
                // The name told in lower case, stored as the memory writes it.
                "I have a cat named Mochi.|mochi passed away in march, we adopted a tabby"
                        + "|Dana's cat Mochi passed away in March 2026.",
                // A team, whether supported or followed as a fan.
                "I support Arsenal.|I'm a Tottenham fan now.|Dana is a Tottenham fan.",
                "I'm a Yankees fan.|I've become a Mets fan.|Dana supports Mets.",
                // Chat's sign-off after the change.
                "i'm a nurse on the cardiac ward|no longer nursing, im a paramedic now lol"
                        + "|Dana is a paramedic.",
                // Hair told as had, then as dyed, with the day it was done.
                "I've got brown hair, pretty boring really.|dyed my hair bright red over the"
                        + " weekend!! obsessed with the colour|Dana's hair is bright red.",
                // A new value told as news of what came with it.
                "I'm a teacher.|I've retrained as a nurse and started on the wards last month."
                        + "|Dana is a nurse.",
                "I'm a teacher.|Just got my first paycheck as a software engineer!"
                        + "|Dana is a software engineer.",
                "I have two kids.|We had a baby girl last week, so three kids now!"
                        + "|Dana has three kids.",
                "I live in Boston.|We've been in Chicago since March.|Dana lives in Chicago.",
                // A pet rehomed is no longer one's own.
                "I have a cat called Mochi.|Mochi had to be rehomed with my mum because of the"
                        + " baby's allergies, so we're pet-free now.|Dana's cat Mochi was rehomed.",
                // A service streamed on, and a provider gone with.
                "I stream music on Spotify.|Switched to Apple Music when I got the new phone and"
                        + " cancelled Spotify.|Dana has Apple Music.",
                "I'm on EE for my phone.|my contract with ee ended and i went with giffgaff, way"
                        + " cheaper|Dana's carrier is Giffgaff.",
                // A degree's subject is a major; "while I …" ends the clause it qualifies.
                "I'm doing a degree in chemistry.|i switched my major to economics, the chem labs"
                        + " were killing me|Dana's major is economics.",
                "I'm a part-time barista while I finish my course.|I'm not a barista anymore, I'm"
                        + " a full-time graphic designer now.|Dana is a full-time graphic designer.",
                // A promotion told after a comma, without "I".
                "I work as a barista.|These days I'm managing the whole cafe, got promoted to"
                        + " manager in May.|Dana works as a manager.",
                // "I have" before a switch is the speaker's own.
                "I'm with EE.|I've switched to O2.|Dana's carrier is O2.",
                // A gym gone to, by its name.
                "I go to Equinox.|Cancelled Equinox, I work out at Planet Fitness now."
                        + "|Dana's gym is Planet Fitness.",
                "I live in Denver.|Austin has been home for three weeks now.|Dana lives in Austin.",
                // What was done, and when, need not hold for what replaced it.
                "I play tennis every Saturday morning.|These days I play padel instead of tennis,"
                        + " my knees like it better.|Dana plays padel.",
                // "'s my" is "is my"; a first name in lower case before the relation.
                "My best friend is Hannah.|honestly hannah and i drifted apart, chloe's my best"
                        + " friend these days|Dana's best friend is Chloe.",
            })
    void theChangeSupersedesTheValueItChanges(String before, String after, String stored) {
        supersedesTheFirst(tell(before, T, after, T.plus(Duration.ofDays(30))), stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My best friend is Jess.|Dana's best friend is Jess.",
                "I bank with Chase.|Dana banks with Chase.",
                "I use Spotify.|Dana uses Spotify.",
                "I support Arsenal.|Dana supports Arsenal.",
                // A phone typed in lower case, written as its maker does.
                "my phone is an iphone 12, the battery barely lasts till lunch lol"
                        + "|Dana's phone is an iPhone 12.",
                "I go to the gym at 24 Hour Fitness.|Dana goes to the gym at 24 Hour Fitness.",
                "These days Arctic Monkeys are my number one band."
                        + "|Dana's favorite band is Arctic Monkeys.",
                "Switched insurers to Progressive to save money.|Dana's insurer is Progressive.",
                "I'm a Yankees fan.|Dana is a Yankees fan.",
                "Passed the bar! I'm officially a lawyer.|Dana is a lawyer.",
                "I took a full-time job at Spotify.|Dana works at Spotify.",
            })
    void aValueIsStoredInItsOwnWords(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).containsExactly(stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I use Spotify.|Cancelled my dentist appointment, I'm on a deadline at work.",
                "I bank with Chase.|Closed the window and moved everything to the garage.",
                "I support Arsenal.|Left the game early and went to a bar with Tom.",
                "I use Spotify.|Cancelled plans with Sarah, I'm on call tonight.",
                "I'm learning Spanish.|Gave up on the crossword, I'm doing a puzzle instead.",
                "I play guitar in a band called The Foxes.|I left The Foxes' rehearsal early and"
                        + " joined my friends for dinner.",
                "My best friend is Jess.|Jess and I went hiking; Kayla is my closest coworker.",
                "I live in Denver.|My sister signed a lease in Austin last week.",
                "I drive a Honda Civic.|Traded stories with Mike about his old Civic.",
                "My laptop is a ThinkPad.|My brother retired his MacBook, the ThinkPad still works"
                        + " great.",
                "My girlfriend is called Priya.|Priya and I broke the vase last month.",
                "My husband's name is Mark.|Mark and I finalized the guest list in June.",
                "My favorite band is Radiohead.|Radiohead is my number one reason to visit England.",
                "I work at Oracle.|Stopped by the Oracle office and dropped off my badge for my"
                        + " friend.",
                "My email is dana@gmail.com.|Closed my old Yahoo account and moved everything to"
                        + " dana@gmail.com.",
                "I bank with Chase.|I use Chase for my credit card too.",
                "My best friend is Jess.|Jess is my closest friend from college.",
                "I live in Denver.|My sister closed on a house in Austin.",
                "I'm dating Chris.|Chris proposed a toast and I said yes to another drink.",
                "My salary is $60,000.|I ran a 10k last weekend.",
                "My weight is 180 pounds.|My brother is down to 165 pounds.",
                "My favorite author is Stephen King.|My son mostly reads Dav Pilkey, he's his"
                        + " favorite author.",
                "I'm engaged to Tom.|Tom and I called off the trip.",
                "My salary is $90k.|My sister's new job pays $110k.",
                "I'm vegan.|My sister eats fish again, so pescatarian now.",
                "My coach is Mike.|My son has a new running coach, Sarah.",
                "My cell is 415-555-0101.|Call the office at 415-555-0199 for an appointment.",
                "My dog is named Rocky.|My neighbor's dog Rocky died last week.",
                "I have a dog named Rocky.|Rocky almost died at the vet, but he's fine now.",
                "My grandma is Rose.|Rose from my book club passed away.",
                "I have a cat named Luna.|Luna's brother died last year.",
                "I have a dog named Max.|Max will die if he eats chocolate.",
                "My dog is named Rocky.|If Rocky ran away I'd be devastated.",
                "I have a dog named Rocky.|The movie where Rocky died made me cry.",
                "I have a dog named Bella.|Bella ran away yesterday but we found her this morning!",
                "My rent is $1,200.|My sister's landlord raised the rent, it's $2,000 now.",
                "I'm learning Spanish.|Learning German has been tough but worth it.",
                "I live in Boston.|I left Boston and joined my family in Denver.",
                "I'm single.|my brother is dating a girl named Sofia",
                "I go to Planet Fitness.|cancelled plans with my trainer, working late tonight",
                "My email is dana.k@gmail.com.|my sister uses dana.x@proton.me going forward",
                "My dentist is Dr. Lee.|My GP is Dr. Shah.",
                "I have a dog named Rocky.|my phone died lol",
                // The old value's possessive is no new value.
                "My dentist is Dr Ferreira.|dr ferreira's nurse left so i had a different one"
                        + " today, still with ferreira obvs",
                // Someone else's news, and a trip's "since".
                "I'm a teacher.|My sister retrained as a nurse last year.",
                "I have two kids.|my sister had twins, so three kids now for her",
                "I live in Boston.|We've been in Paris since Tuesday, the food is amazing!",
                "I'm with EE.|my sister has switched to O2",
                "I work as a barista.|my sister got promoted to manager",
                "I stream music on Spotify.|my sister streams everything on Apple Music",
                "I have a dog named Rex.|my friend's dog Rex was rehomed last week",
                "I'm on EE.|went with my mum to the EE shop",
                // Nearly done is not done.
                "I go to Equinox.|nearly switched to Planet Fitness but the classes at Equinox"
                        + " are too good",
                // A release is no change of one's own, said beside "not upgrading".
                "i use an iphone 14|new iphone 16 dropped, not upgrading tho mine's fine",
                // A fan of a singer has no team; "DONE" is none either.
                "I'm a Taylor Swift fan.|I'm a huge Beyonce fan too.",
                "I'm a big Chelsea fan.|chelsea are an absolute disgrace this season, im done,"
                        + " im DONE. (ill be watching on saturday)",
            })
    void wordsOfChangeThatChangeNothingLeaveTheValueCurrent(String before, String after) {
        Told told = tell(before, T, after, T.plus(Duration.ofDays(30)));
        assertThat(told.planned())
                .extracting(p -> p.decision().kind())
                .as(after)
                .doesNotContain("supersede");
        List<String> stored =
                told.planned().stream().map(p -> p.change().memory().content()).toList();
        assertThat(stored).as(after).noneMatch(c -> c.contains(" switched from "));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Winning a championship is my number one goal.",
                "Cancelled plans with Sarah, I'm on call tonight.",
                "Closed the window and moved everything to the garage.",
            })
    void noValueIsReadFrom(String said) {
        assertThat(facts(said, T))
                .extracting(CandidateFact::content)
                .noneMatch(c -> c.contains("favorite") || c.contains("switched"));
    }
}
