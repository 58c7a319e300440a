package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.engram.dedup.ChangePlanner;
import io.engram.dedup.Decision;
import io.engram.dedup.DedupPolicy;
import io.engram.dedup.UserMemories;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.MemoryChange;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A value said again in other words, turn to decision: the later turn's fact reads the new value in
 * the same words as the first one's, and supersedes it by what it is the value of. The vectors are
 * orthogonal, so no similarity can stand in for reading the value.
 */
class ChangedValuesTest {

    private static final Instant T = DanaTells.T;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Boston.|We just relocated to Denver.|Dana moved to Denver.",
                "I live in Boston.|I'm living in Denver these days.|Dana lives in Denver.",
                "I work at Google as an engineer.|I started a new job at Stripe last week."
                        + "|Dana works at Stripe.",
                "My favorite food is sushi.|These days tacos are my favorite food."
                        + "|Dana's favorite food is tacos.",
                "My favorite band is Coldplay.|I'm not into Coldplay anymore, Radiohead is my"
                        + " favorite band now.|Dana's favorite band is Radiohead.",
                "My budget for the trip is $2,000.|Actually I can spend up to $3,500 on the trip."
                        + "|Dana's budget for the trip is $3,500.",
                "My daughter is 5.|My daughter just turned 6.|Dana's daughter is 6.",
                "I'm 34 years old.|I turned 35 yesterday.|Dana's age is 35.",
                "My manager is Linda.|Linda left, my new manager is Raj.|Dana's manager is Raj.",
                "Nowadays I live in Leeds.|Right now I live in York.|Dana lives in York.",
                "I live in Boston.|We're now based in Austin.|Dana lives in Austin.",
                "My favorite color is blue.|Green has become my favorite color."
                        + "|Dana's favorite color is green.",
                "I'm a teacher.|I'm a nurse now.|Dana is a nurse.",
                "I work as a teacher.|I'm a nurse at the clinic now.|Dana is a nurse at the clinic.",
                "My dentist is Dr. Lee.|My dentist is Dr. Patel now.|Dana's dentist is Dr. Patel.",
                "I live in Atlanta.|I've been a Minneapolis resident since the fall."
                        + "|Dana lives in Minneapolis.",
                "My husband is Mark.|Mark and I finalized our divorce.|Dana got divorced from Mark.",
                "My favorite book is Dune.|Project Hail Mary has taken Dune's place as my favorite"
                        + " book.|Dana's favorite book is Project Hail Mary.",
                "My email is kim@old.net.|My new address is kim@new.net.|Dana's email is kim@new.net.",
                "My salary is $85,000.|I'm making $92,000 after the promotion."
                        + "|Dana is making $92,000.",
                "I work at Google.|These days I'm working at Shopify.|Dana works at Shopify.",
                "I work at Google.|I've been working at Amazon since January."
                        + "|Dana works at Amazon.",
                "I'm a teacher.|I'm working as a nurse now.|Dana works as a nurse.",
                "I'm a teacher.|I became a nurse.|Dana is a nurse.",
                "I'm single.|I got engaged.|Dana got engaged.",
                "My pronouns are she/her.|My pronouns are they/them now."
                        + "|Dana's pronouns are they/them.",
                // A seventh set, other phrasings again.
                "I work at Intel.|I'm at Meta these days.|Dana works at Meta.",
                "I work at Intel.|Nvidia is where I work now.|Dana works at Nvidia.",
                "I work at Intel.|Just finished my first month at Nvidia.|Dana works at Nvidia.",
                "I live in Portland.|I've called Tacoma home since March.|Dana lives in Tacoma.",
                "I live in Portland.|We now call Tacoma home.|Dana lives in Tacoma.",
                "I live in Portland.|Our new address is in Tacoma.|Dana's address is in Tacoma.",
                "I'm a nurse.|Switched careers - I'm a paramedic now.|Dana is a paramedic.",
                "My budget is $5,000.|Budget's now $6,000.|Dana's budget is $6,000.",
                "I'm single.|I have a boyfriend now, his name is Leo.|Dana's boyfriend is Leo.",
                "My gym is Equinox.|I go to 24 Hour Fitness now.|Dana's gym is 24 Hour Fitness.",
                "My gym is Equinox.|These days I work out at Crunch.|Dana's gym is Crunch.",
                "My favorite movie is Alien.|Arrival has overtaken Alien as my favorite movie."
                        + "|Dana's favorite movie is Arrival.",
                "I have two kids.|We just welcomed our third child."
                        + "|Dana welcomed their third child.",
                "I'm 40.|I just hit 41.|Dana's age is 41.",
                "My dog is called Max.|We renamed our dog to Buddy.|Dana's dog is called Buddy.",
                "My rent is $1,800.|Our landlord raised the rent to $2,000.|Dana's rent is $2,000.",
                // An eighth set.
                "I live in Chicago.|Chicago's behind us now, we're settled in Nashville."
                        + "|Dana lives in Nashville.",
                "I live in Chicago.|We packed up and headed to Nashville for good."
                        + "|Dana moved to Nashville.",
                "I live in Chicago.|I'm a Nashville resident as of this spring."
                        + "|Dana lives in Nashville.",
                "I'm an accountant.|I left accounting to become a photographer."
                        + "|Dana is a photographer.",
                "I'm married to Sam.|Sam and I are divorced now.|Dana got divorced from Sam.",
                "My favorite food is pizza.|Pizza's been dethroned, sushi is my favorite food now."
                        + "|Dana's favorite food is sushi.",
                "My favorite band is Muse.|Lately my favorite band has been Wet Leg."
                        + "|Dana's favorite band is Wet Leg.",
                "My salary is $70,000.|They bumped my salary to $78,000."
                        + "|Dana's salary is $78,000.",
                "My son is 3.|My son turned four last week.|Dana's son is four.",
                "My email is sam@a.com.|Please update my email to sam@b.com."
                        + "|Dana's email is sam@b.com.",
                "My hometown is Austin.|I grew up in Dallas, not Austin, I misspoke."
                        + "|Dana grew up in Dallas.",
                "I'm single.|I'm engaged to Sam now.|Dana is engaged to Sam.",
                "My girlfriend is Emma.|Emma and I aren't together anymore."
                        + "|Dana broke up with Emma.",
                "I'm single.|I started dating a guy named Luis.|Dana is dating Luis.",
                "My partner is Alex.|Alex and I called it quits in the spring."
                        + "|Dana broke up with Alex in the spring.",
                "I'm married.|My divorce went through last month.|Dana got divorced in April 2026.",
                "I'm single.|Say hi to my new boyfriend, Marcus!|Dana's boyfriend is Marcus.",
                "My favorite band is Coldplay.|Honestly I'm over Coldplay, Fontaines D.C. is my"
                        + " favorite band now.|Dana's favorite band is Fontaines D.C.",
                "My favorite food is ramen.|Ramen's out, tacos are my favorite food these days."
                        + "|Dana's favorite food is tacos.",
                "I'm an architect.|Career change: I'm now a high school teacher."
                        + "|Dana is a high school teacher.",
                "My dog is Max.|Max passed last year; our new dog is named Juno."
                        + "|Dana's dog is named Juno.",
                "My hometown is Reno.|I'm originally from Boise, actually.|Dana is from Boise.",
                "My favorite movie is Heat.|Heat has been replaced by Oppenheimer as my favorite"
                        + " movie.|Dana's favorite movie is Oppenheimer.",
                "I'm single.|I've been seeing a woman named Claire for a few months."
                        + "|Dana is dating Claire.",
                "I'm a chef.|I hung up my apron, I work as a real estate agent now."
                        + "|Dana works as a real estate agent.",
                "I'm a journalist.|I left journalism and now I'm a content strategist."
                        + "|Dana is a content strategist.",
                "I'm single.|I'm in a relationship with a guy called Ben now.|Dana is dating Ben.",
                "My favorite team is the Giants.|The 49ers are my favorite team now."
                        + "|Dana's favorite team is The 49ers.",
                "My favorite snack is chips.|My snack of choice these days is almonds."
                        + "|Dana's favorite snack is almonds.",
                "My hometown is Fresno.|I'm actually from Modesto.|Dana is from Modesto.",
                "My favorite sport is tennis.|I'm all about pickleball now, it's my favorite sport."
                        + "|Dana's favorite sport is pickleball.",
                "I'm married.|I got divorced last month.|Dana got divorced in April 2026.",
                "I have two cats.|We have three cats now.|Dana has three cats.",
                "I'm vegetarian.|I'm vegan now.|Dana is vegan.",
                "My budget for the Hawaii trip is $10,000.|The budget for the Hawaii trip went up"
                        + " to $15,000.|Dana's budget for the Hawaii trip is $15,000.",
                "My budget for the trip is $2,000.|Our trip budget is now $4,000."
                        + "|Dana's trip budget is $4,000.",
                "My favorite movie is Inception.|My favorite film these days is Interstellar."
                        + "|Dana's favorite film is Interstellar.",
                "I drive a Honda Civic.|My car is a Tesla now.|Dana's car is a Tesla.",
                "My gym is Planet Fitness.|I switched gyms to Equinox.|Dana's gym is Equinox.",
                "My boss is Linda.|I report to Raj now.|Dana's boss is Raj.",
                "I live in Boston.|Home is Seattle now.|Dana lives in Seattle.",
                "My sister is a teacher.|My sister is a nurse now.|Dana's sister is a nurse.",
                // The subject said once for two clauses, or left out as chat leaves it out.
                "I live in Chicago.|We packed up and moved to Phoenix last month."
                        + "|Dana moved to Phoenix in April 2026.",
                "I live in Chicago.|Just finished moving into my new place in Phoenix."
                        + "|Dana moved to Phoenix.",
                "I live in Chicago.|I've settled in Phoenix now.|Dana lives in Phoenix.",
                "I work at Microsoft.|I left Microsoft and joined Netflix.|Dana works at Netflix.",
                "I work at Microsoft.|I accepted an offer from Netflix and started Monday."
                        + "|Dana works at Netflix.",
                "I work at Microsoft.|I'm now employed by Netflix.|Dana works at Netflix.",
                "I work at a bakery.|I got hired at the hospital.|Dana works at the hospital.",
                "I work at Google.|My new employer is Apple.|Dana's employer is Apple.",
                "My favorite book is Dune.|Dune used to be my favorite book, but now it's"
                        + " Hyperion.|Dana's favorite book is Hyperion.",
                "My favorite sport is tennis.|I'd say my favorite sport is golf now."
                        + "|Dana's favorite sport is golf.",
                "My favorite show is The Office.|Lately my favorite show is Severance."
                        + "|Dana's favorite show is Severance.",
                "I have one kid.|We now have two kids.|Dana has two kids.",
                "My salary is $80,000.|I got a raise to $95,000.|Dana's salary is $95,000.",
                "My budget is $500.|I can go up to $700 now.|Dana's budget is $700.",
                "I'm 29.|I just celebrated my 30th birthday.|Dana's age is 30.",
                "My team lead is Sarah.|Sarah got promoted, so Mike is my team lead now."
                        + "|Dana's team lead is Mike.",
                "I'm engaged to Sam.|Sam and I got married in June."
                        + "|Dana got married to Sam in June 2026.",
                "My car is a Honda.|I just got a new car, a Mazda.|Dana's car is a Mazda.",
                "I live in Seattle.|My family and I just moved to Portland.|Dana moved to Portland.",
                "I live in Seattle.|I'm a Portland resident now.|Dana lives in Portland.",
                "I live in Seattle.|I now call Portland home.|Dana lives in Portland.",
                "I live in Seattle.|I moved from Seattle to Portland.|Dana moved to Portland.",
                "I work for Amazon.|I started at Google on Monday.|Dana works at Google.",
                "I work for Amazon.|Today was my first day at Google.|Dana works at Google.",
                "I work for Amazon.|I switched jobs, I'm at Google now.|Dana works at Google.",
                "I work for Amazon.|Google hired me last month.|Dana works at Google.",
                "I'm an engineer at Amazon.|I'm an engineer at Google now."
                        + "|Dana is an engineer at Google.",
                "I'm a nurse.|I changed careers to become a paramedic.|Dana is a paramedic.",
                "My favorite restaurant is Nobu.|I have a new favorite restaurant: Per Se."
                        + "|Dana's favorite restaurant is Per Se.",
                "My boyfriend is Jake.|Jake and I broke up.|Dana broke up with Jake.",
                "My boyfriend is Jake.|I'm dating Chris now.|Dana is dating Chris.",
                "I'm single.|I have a girlfriend now.|Dana has a girlfriend.",
                "I have two kids.|We just had our third child.|Dana had their third child.",
                "My budget is $1,000.|Let's make the budget $1,500.|Dana's budget is $1,500.",
                "My budget is $1,000.|Actually my budget is more like $1,500."
                        + "|Dana's budget is $1,500.",
                "My salary is $60k.|I now make $75k.|Dana's salary is $75k.",
                "My rent is $2,000.|I now pay $2,400 in rent.|Dana's rent is $2,400.",
                "My manager is Tom.|I have a new manager, Priya.|Dana's manager is Priya.",
                "My manager is Tom.|Tom left, so now I report to Priya.|Dana's boss is Priya.",
                "My email is d@a.com.|You can reach me at dan@b.com now."
                        + "|Dana's email is dan@b.com.",
                "I'm vegan.|I'm not vegan anymore.|Dana is no longer vegan.",
                "My phone number is 555-0101.|New number: 555-0199."
                        + "|Dana's phone number is 555-0199.",
                // Phrasings written after the rules above, to see how they carry.
                "I work at Deloitte.|I just joined Accenture as a consultant."
                        + "|Dana works at Accenture as a consultant.",
                "I work at Deloitte.|I resigned from Deloitte and started my own company."
                        + "|Dana no longer works at Deloitte.",
                "My home is in Miami.|Home is now Atlanta.|Dana lives in Atlanta.",
                "My favorite movie is Alien.|Alien isn't my favorite movie anymore; it's Arrival."
                        + "|Dana's favorite movie is Arrival.",
                "My favorite food is pizza.|Ramen has replaced pizza as my favorite food."
                        + "|Dana's favorite food is ramen.",
                "I'm engaged to Leo.|Leo and I tied the knot last weekend."
                        + "|Dana got married to Leo on the weekend of 9 May 2026.",
                "I'm married.|I'm separated from my husband.|Dana is separated.",
                "My budget for the wedding is $20,000.|We're now budgeting $25,000 for the wedding."
                        + "|Dana's budget for the wedding is $25,000.",
                "My rent is $1,200.|Rent just went up to $1,350.|Dana's rent is $1,350.",
                "My therapist is Dr. Lin.|I started seeing a new therapist, Dr. Ruiz."
                        + "|Dana's therapist is Dr. Ruiz.",
                "My email is a@x.com.|I have a new email: b@y.com.|Dana's email is b@y.com.",
                "I drive a Jeep.|I sold the Jeep and now drive a Prius.|Dana drives a Prius.",
                "My gym is Gold's.|I moved gyms to Anytime Fitness.|Dana's gym is Anytime Fitness.",
                "I live in Houston.|Been living in San Antonio for a few weeks now."
                        + "|Dana lives in San Antonio.",
                "I work at IBM.|I'm now at Oracle as a data scientist."
                        + "|Dana works at Oracle as a data scientist.",
                "I work at IBM.|I got an offer from Oracle and took it.|Dana works at Oracle.",
                "I work at IBM.|My new job is at Oracle.|Dana's job is at Oracle.",
                "I work at IBM.|I was laid off from IBM last month.|Dana no longer works at IBM.",
                "I'm a chef.|I've become a food critic.|Dana is a food critic.",
                "My favorite drink is tea.|My go-to drink these days is coffee."
                        + "|Dana's go-to drink is coffee.",
                "I'm 52.|Just turned 53!|Dana's age is 53.",
                "My budget is $300.|I'm raising my budget to $450.|Dana's budget is $450.",
                "My budget is $300.|I'd like to spend no more than $450 now.|Dana's budget is $450.",
                "My salary is $90,000.|I'm now earning $110,000 a year."
                        + "|Dana's salary is $110,000 a year.",
                "My manager is Lisa.|I have a new boss named Omar.|Dana's boss is Omar.",
                "My email is x@a.com.|Please use y@b.com from now on.|Dana's email is y@b.com.",
                "I drive a Kia.|I'm driving a Honda now.|Dana drives a Honda.",
                "My phone is 222-3333.|My new phone number is 444-5555."
                        + "|Dana's phone number is 444-5555.",
                "I'm based in Chicago.|My new apartment is in Nashville."
                        + "|Dana's apartment is in Nashville.",
                "I'm based in Chicago.|Nashville is home now.|Dana lives in Nashville.",
                "I'm based in Chicago.|I just relocated my family to Nashville."
                        + "|Dana moved to Nashville.",
                "I work at Target.|I left Target for a job at Walmart.|Dana works at Walmart.",
                "I'm an accountant.|I retrained as a teacher.|Dana is a teacher.",
                "My favorite sport is soccer.|These days I'm more into basketball, it's my favorite sport."
                        + "|Dana's favorite sport is basketball.",
                "I'm single.|I'm seeing someone named Alex.|Dana is dating Alex.",
                "I'm single.|I've been in a relationship with Alex for two months."
                        + "|Dana is dating Alex.",
                "I'm dating Alex.|Alex and I got married in the spring."
                        + "|Dana got married to Alex in the spring.",
                "I'm 30.|I'm turning 31 today.|Dana's age is 31.",
                "My son is 4.|My son just had his 5th birthday.|Dana's son is 5.",
                "My email is me@old.org.|I've updated my email to me@new.org."
                        + "|Dana's email is me@new.org.",
                "I'm vegan.|I've gone vegetarian.|Dana is vegetarian.",
                "My favorite podcast is Serial.|I'm obsessed with Radiolab now, it's my new favorite podcast."
                        + "|Dana's favorite podcast is Radiolab.",
                "I work remotely for Shopify.|I now work remotely for Etsy.|Dana works at Etsy.",
                "My landlord is Mr. Smith.|We have a new landlord, Ms. Jones."
                        + "|Dana's landlord is Ms. Jones.",
                "I live in Phoenix.|Quick update: I'm in Tucson now, we moved last weekend."
                        + "|Dana lives in Tucson.",
                "I live in Phoenix.|Just settled into our place in Tucson.|Dana lives in Tucson.",
                "I work at Intel.|Starting today I work at AMD.|Dana works at AMD.",
                "I work at Intel.|AMD is my new employer.|Dana's employer is AMD.",
                "I'm dating Leo.|Leo proposed and we're engaged!|Dana is engaged.",
                "I have two kids.|I'm a mom of three now.|Dana has three children.",
                "My salary is $70k.|I got a raise and now make $80k.|Dana's salary is $80k.",
                "My rent is $1,000.|I'm paying $1,100 in rent now.|Dana's rent is $1,100.",
                "My manager is Ann.|Ben replaced Ann as my manager.|Dana's manager is Ben.",
                "My email is a@b.com.|My email address changed to c@d.com.|Dana's email is c@d.com.",
                "I'm vegetarian.|I'm fully vegan now.|Dana is vegan.",
                "My name is Robert.|I prefer to be called Rob.|Dana's preferred name is Rob.",
                "I live in Denver.|We finally made the move to Boulder.|Dana moved to Boulder.",
                "I live in Denver.|I'm a Boulder local now.|Dana lives in Boulder.",
                "I work at Apple.|Meta offered me a job and I took it.|Dana works at Meta.",
                "I work at Apple.|I jumped ship to Meta.|Dana works at Meta.",
                "I'm a nurse.|I became a doctor last year.|Dana is a doctor.",
                "I'm single.|I'm in a relationship now.|Dana is in a relationship.",
                "My salary is $40k.|My pay went up to $45k.|Dana's pay is $45k.",
            })
    void theNewValueSupersedesTheOldOne(String before, String after, String stored) {
        Told told = tell(before, T, after, T.plus(java.time.Duration.ofDays(60)));
        List<CandidateFact> first = told.first();
        List<CandidateFact> later = told.later();
        List<ChangePlanner.Planned> planned = told.planned();

        // What is read may differ in case only: the planner writes a value as the old one was
        // written ("Green" after "blue" is stored "green").
        assertThat(later)
                .extracting(c -> c.content().toLowerCase(java.util.Locale.ROOT))
                .contains(stored.toLowerCase(java.util.Locale.ROOT));
        ChangePlanner.Planned superseding =
                planned.stream()
                        .filter(p -> p.change().memory().content().equals(stored))
                        .findFirst()
                        .orElseThrow();
        assertThat(superseding.decision())
                .as(superseding.decision().reason())
                .isInstanceOf(Decision.Supersede.class);
        assertThat(superseding.change()).isInstanceOf(MemoryChange.Superseded.class);
        assertThat(((MemoryChange.Superseded) superseding.change()).old().content())
                .isEqualTo(first.get(0).content());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I'm a teacher.|I'm a mother now.",
                "I'm a nurse.|I'm a volunteer at the shelter.",
                "I live in Boston.|My sister Ana lives in Denver.",
                "My favorite color is blue.|My favorite food is sushi.",
                "I live in Boston.|I grew up in Denver.",
                "I live in Boston.|I was born in Denver.",
                "I live in Boston.|I'm originally from Denver.",
                "I live in Boston.|I visited Denver last week.",
                "I'm 34.|My daughter is 5.",
                "My daughter is 5.|My daughter is a nurse.",
                "My favorite color is blue.|My daughter's favorite color is pink.",
                "My favorite food is sushi.|My son's favorite food is pizza.",
                "I'm a teacher.|I'm a big fan of nurses.",
                "I have two cats.|I have two dogs.",
                "I'm single.|I'm vegan.",
                "I live in Boston.|I left Boston and joined my family in Denver.",
                "My manager is Linda.|Mike is my coach now.",
                // The same value said with less: it stays as the first one said it.
                "I'm an engineer at Amazon.|I'm an engineer.",
                "My wife is Sara.|I'm married.",
                "I work at Intel.|I switched from day shift to night shift.",
                "I live in Paris.|I switched from tea to coffee.",
                // One of several of a kind is not the one: a work email beside the email.
                "My email is sam@a.com.|My work email is sam@work.com.",
                "My salary is $70,000.|My bonus is $5,000.",
                "My son is 3.|My daughter is 5.",
                "My budget for the trip is $3,000.|My budget for the wedding is $20,000.",
                "My rent is $1,500.|My sister's rent is $2,000.",
            })
    void anotherAttributeLeavesTheFirstCurrent(String before, String after) {
        Told told = tell(before, T, after, T.plus(java.time.Duration.ofDays(60)));
        assertThat(told.later()).as("a fact from: " + after).isNotEmpty();
        noneSuperseded(told, after);
    }

    private static void noneSuperseded(Told told, String after) {
        assertThat(told.planned())
                .extracting(p -> p.decision().kind())
                .as(after)
                .doesNotContain("supersede");
    }

    /**
     * A change named by the old value ("I switched from coffee to tea") says nothing of what it is
     * the value of: the memory that holds the old value does, and the new fact takes its words.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "My favorite drink is coffee.|I've switched from coffee to tea."
                        + "|Dana's favorite drink is tea.",
                "My laptop is a Dell.|I replaced my Dell with a MacBook.|Dana's laptop is a MacBook.",
                "I drive a Toyota.|I traded in my Toyota for a Tesla.|Dana drives a Tesla.",
                "I drive a BMW.|I traded the BMW for an Audi.|Dana drives an Audi.",
                "I work at Intel.|I changed from Intel to AMD last month.|Dana works at AMD.",
                "My gym is Equinox.|I go to Orangetheory now instead of Equinox."
                        + "|Dana's gym is Orangetheory.",
                "I drive a BMW.|I got an Audi and sold my BMW.|Dana drives an Audi.",
                "I drive a BMW.|I sold the BMW and bought a Volvo.|Dana drives a Volvo.",
                "My gym is Equinox.|I cancelled Equinox and joined Planet Fitness."
                        + "|Dana's gym is Planet Fitness.",
                "My favorite movie is Alien.|Alien used to be my favorite, now it's Arrival."
                        + "|Dana's favorite movie is Arrival.",
                // Said with less of its attribute: stored in the words of the old one.
                "My team lead is Priya.|Priya moved teams; Marcus is my lead now."
                        + "|Dana's team lead is Marcus.",
                "I play guitar.|I gave up guitar and took up the drums.|Dana plays the drums.",
                "My gym is LA Fitness.|I've been going to Equinox instead of LA Fitness."
                        + "|Dana's gym is Equinox.",
                "I play soccer.|I quit soccer and picked up tennis.|Dana plays tennis.",
                "My go-to bar is Lucky's.|We mostly go to The Tap Room now instead of Lucky's."
                        + "|Dana's go-to bar is The Tap Room.",
                "My gym is Anytime Fitness.|I dropped Anytime Fitness for a climbing gym called"
                        + " Movement.|Dana's gym is a climbing gym called Movement.",
                "I drive a Mini Cooper.|We traded the Mini for a Volvo XC90 since the twins came."
                        + "|Dana drives a Volvo XC90.",
                "My gym is 24 Hour Fitness.|I cancelled my 24 Hour Fitness membership and joined"
                        + " Orangetheory.|Dana's gym is Orangetheory.",
                "My phone is an iPhone.|I ditched my iPhone for a Pixel.|Dana's phone is a Pixel.",
                "I'm learning Spanish.|I dropped Spanish and started learning Japanese."
                        + "|Dana is learning Japanese.",
                "My doctor is Dr. Kim.|I see Dr. Shah now instead of Dr. Kim."
                        + "|Dana's doctor is Dr. Shah.",
            })
    void aChangeNamedByTheOldValueTakesItsAttribute(String before, String after, String stored) {
        Told told = tell(before, T, after, T.plus(java.time.Duration.ofDays(60)));
        assertThat(told.planned())
                .filteredOn(p -> p.change() instanceof MemoryChange.Superseded)
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.change().memory().content()).isEqualTo(stored);
                            assertThat(((MemoryChange.Superseded) p.change()).old().content())
                                    .isEqualTo(told.first().get(0).content());
                        });
    }

    /**
     * A change in words no reader knows ("Phoenix is home for us now") is read against the values
     * Dana's memories hold: the one memory the sentence speaks of, by its attribute's words or by
     * naming its old value and leaving it, takes the one other value of its kind the sentence
     * names.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Seattle.|We've relocated - Phoenix is home for us now."
                        + "|Dana lives in Phoenix.",
                "I live in Seattle.|I'm now living out in Phoenix.|Dana lives in Phoenix.",
                "I live in Seattle.|Left Seattle in June, I'm a Phoenix guy now."
                        + "|Dana lives in Phoenix.",
                "I work at Boeing.|My new job at SpaceX started this week.|Dana works at SpaceX.",
                "I work at Boeing.|Boeing laid me off, but SpaceX hired me a month later."
                        + "|Dana works at SpaceX.",
                "I drive a Civic.|My Civic got totaled so I bought a Corolla."
                        + "|Dana drives a Corolla.",
                "I'm single.|I met someone, her name is Priya, and we're together now."
                        + "|Dana is dating Priya.",
                "My number is 555-0100.|My number changed, it's 555-0199 now."
                        + "|Dana's phone number is 555-0199.",
                "My email is jo@x.com.|Use jo@y.com for me going forward."
                        + "|Dana's email is jo@y.com.",
                "My landlord is Mr. Lee.|The building was sold and our new landlord is Ms. Park."
                        + "|Dana's landlord is Ms. Park.",
                "My dog is Rex.|Rex passed away, and we adopted a puppy named Bolt."
                        + "|Dana's dog is Bolt.",
                "I live in Atlanta.|Atlanta was getting too hot for us, so we're in Minneapolis"
                        + " now.|Dana lives in Minneapolis.",
                "I drive a Jeep.|Got rid of the Jeep, driving a Subaru these days."
                        + "|Dana drives a Subaru.",
                "My doctor is Dr. Patel.|I switched doctors, I see Dr. Nguyen now."
                        + "|Dana's doctor is Dr. Nguyen.",
                "I live in Denver.|Quick update: we closed on a house in Raleigh and we've been"
                        + " living there since October.|Dana lives in Raleigh.",
                "I live in Denver.|Not in Denver anymore! Raleigh is where we ended up."
                        + "|Dana lives in Raleigh.",
                "I work at Target.|After six years at Target I made the jump to Costco."
                        + "|Dana works at Costco.",
                "I drive a Prius.|We upgraded to a Tesla Model 3 last month."
                        + "|Dana drives a Tesla Model 3.",
                "My email is ana@gmail.com.|I stopped using gmail, email me at ana@proton.me"
                        + " instead.|Dana's email is ana@proton.me.",
                "My salary is $60k.|With the raise I'm at $67k now.|Dana's salary is $67k.",
                "My dentist is Dr. Wu.|Dr. Wu retired, so I go to Dr. Reyes now."
                        + "|Dana's dentist is Dr. Reyes.",
                "I work at Pfizer.|Pfizer let a bunch of us go; I'm at Moderna now."
                        + "|Dana works at Moderna.",
                "My therapist is Dr. Kaye.|I stopped seeing Dr. Kaye and started with Dr. Ortiz."
                        + "|Dana's therapist is Dr. Ortiz.",
                "I drive a Kia Soul.|Our Kia was stolen, so we got a Hyundai Kona."
                        + "|Dana drives a Hyundai Kona.",
                "My email is lee@yahoo.com.|Please send stuff to lee@icloud.com from now on."
                        + "|Dana's email is lee@icloud.com.",
                "My salary is $45,000.|They raised me to $50,000.|Dana's salary is $50,000.",
                "My budget for the car is $15,000.|I can stretch the car budget to $18,000."
                        + "|Dana's budget for the car is $18,000.",
                "My physio is Dr. Brooks.|Dr. Brooks moved away, so now I see Dr. Kim for physio."
                        + "|Dana's physio is Dr. Kim.",
                "I live in Portland.|We're Sacramento people now - the move finally happened."
                        + "|Dana lives in Sacramento.",
                "I live in Portland.|Settled into Sacramento last month, still unpacking."
                        + "|Dana lives in Sacramento.",
                "I work at Intuit.|Intuit and I parted ways, I'm at Adobe now."
                        + "|Dana works at Adobe.",
                "I work at Intuit.|Adobe brought me on as a senior engineer.|Dana works at Adobe.",
                "My cat's name is Mittens.|We renamed the cat to Pickles."
                        + "|Dana's cat is called Pickles.",
            })
    void aChangeInOtherWordsIsReadAgainstTheStoredValue(
            String before, String after, String stored) {
        aChangeNamedByTheOldValueTakesItsAttribute(before, after, stored);
    }

    /**
     * Sentences that name a value with a word of change but change none of Dana's: someone else's
     * news, a trip, a plan, a value that still holds, an email sent to someone.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Seattle.|My sister just moved to Phoenix.",
                "I live in Seattle.|We're flying to Phoenix next week.",
                "I live in Seattle.|I visited Phoenix last month.",
                "I live in Seattle.|Our new neighbors are from Phoenix.",
                "I live in Boston.|I left Boston and joined my family in Denver for the holidays.",
                "I work at Boeing.|My team at Boeing now works with SpaceX.",
                "I work at Boeing.|Boeing just announced a new contract with NASA.",
                "I work at Boeing.|We hired a new intern named Sam at Boeing.",
                "I drive a Civic.|My neighbor sold his Corolla.",
                "My email is jo@x.com.|I sent the file to bob@y.com just now.",
                "My dog is Rex.|We adopted a cat named Luna, Rex loves her.",
                "My landlord is Mr. Lee.|I now pay rent to Mr. Lee by transfer.",
                "I'm single.|My friend Priya just got engaged.",
                "My gym is Crunch.|I joined a yoga class at Crunch.",
                "I live in Atlanta.|My parents are moving to Minneapolis next year.",
                "I live in Atlanta.|We had a layover in Minneapolis on the way back.",
                "I work at Oracle.|My friend just got a job at Salesforce.",
                "I work at Oracle.|Oracle now partners with Salesforce on a new product.",
                "I drive a Jeep.|My wife now drives a Subaru.",
                "My phone number is 312-555-0101.|Call the office at 312-555-0177 for appointments.",
                "My doctor is Dr. Patel.|Dr. Nguyen now covers for Dr. Patel on Fridays.",
                "My boss is Greg.|Greg now reports to Alicia.",
                "I work at Boeing.|I joined a running club called Striders.",
                "My therapist is Dr. Kaye.|I stopped by Dr. Kaye's office.",
                "I'm single.|Meet my new coworker, Sam.",
                "I'm married.|My friend's divorce went through.",
                "My dog is Max.|We got a new puppy named Luna too.",
                "My dog is Max.|We got a dog bed for Max.",
                "My salary is $45,000.|I raised $2,000 for the charity run.",
                "My salary is $45,000.|I got a $500 bonus this month.",
                "My email is lee@yahoo.com.|From now on I'll cc boss@corp.com on everything.",
                "I drive a Kia Soul.|My Kia got a new paint job, looks like a Ferrari now.",
                "I drive a Kia Soul.|Our Kia was stolen but the police found it.",
                "I work at Dell.|Dell got a new CEO named Marcus.",
                "My gym is Anytime Fitness.|I dropped my keys at Anytime Fitness for a minute.",
                "I live in Portland.|We're Dodgers people, always have been.",
                "I live in Portland.|Settled into a new routine at Nike.",
                "I work at Intuit.|Adobe brought me on stage for a demo.",
                "I'm single.|My sister is in a relationship with a guy called Ben now.",
            })
    void aSentenceThatChangesNoneOfTheValuesLeavesThemCurrent(String before, String after) {
        Told told = tell(before, T, after, T.plus(java.time.Duration.ofDays(60)));
        noneSuperseded(told, after);
        assertThat(told.planned())
                .extracting(p -> p.change().memory().content())
                .as("a hint is never stored as said")
                .noneMatch(c -> c.startsWith("Dana: "));
    }

    /**
     * A value said after the stored one is current even when it names an earlier time: the move
     * "last month", told minutes after "I live in Boston", is where Dana lives now.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I live in Boston.|We moved to Denver last month."
                        + "|Dana moved to Denver in February 2026.",
                "I work at Google.|I started at Stripe last week.|Dana works at Stripe.",
                "My wife is Beth.|Beth and I divorced last year."
                        + "|Dana got divorced from Beth in 2025.",
            })
    void aValueSaidLaterIsCurrentWhateverTimeItNames(String before, String after, String stored) {
        List<ChangePlanner.Planned> planned =
                tell(before, T, after, T.plus(java.time.Duration.ofMinutes(5))).planned();
        assertThat(planned)
                .filteredOn(p -> p.change().memory().content().equals(stored))
                .singleElement()
                .extracting(ChangePlanner.Planned::change)
                .isInstanceOf(MemoryChange.Superseded.class);
    }

    /**
     * Turns can arrive out of order: "I live in Boston", said in March, reaching the planner after
     * a move said in May, is history from the start — whether the move names a time after March
     * ("last month") or before it ("last year"): what was said last is current.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"We moved to Denver last month.", "We moved to Denver last year."})
    void aValueSaidBeforeTheStoredOneIsHistory(String move) {
        ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
        UserMemories known = new UserMemories(100);
        Instant may = T.plus(java.time.Duration.ofDays(60));
        List<CandidateFact> moved = facts(move, may);
        planner.plan(DANA, Optional.of("s2"), "conversation", moved, axes(moved, 0), known, may);
        List<CandidateFact> boston = facts("I live in Boston.", T);
        List<ChangePlanner.Planned> planned =
                planner.plan(
                        DANA, Optional.of("s1"), "conversation", boston, axes(boston, 1), known, T);
        assertThat(planned)
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.change()).isInstanceOf(MemoryChange.Created.class);
                            assertThat(p.change().memory().status())
                                    .isEqualTo(io.engram.memory.MemoryStatus.SUPERSEDED);
                        });
    }

    /**
     * Lines that give no value of Dana's, though they look like one: a relative's news, a time read
     * as a workplace, a favorite without the thing it is the favorite of.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "My brother moved to Phoenix.",
                "Thai isn't my favorite anymore, it's Ethiopian now.",
                "I'm employed at the moment.",
                "I got a new bike, finally!",
                "Work is crazy.",
                "I had my 3rd birthday party for my son.",
                "I got a raise to celebrate.",
                "Call me at 5pm.",
                "Today is my first day at the new gym.",
                "Mom hired me to babysit.",
                "We split up the bill.",
                "I'm dating again.",
                "We are engaged in a discussion.",
                "I'm in Tucson for the weekend.",
                "My first day at Disneyland was amazing.",
                "I jumped ship to the other team.",
                "I became a fan last year.",
                "Paris is home to the Louvre.",
                "Everyone calls me crazy.",
                "I relocated the couch to the basement.",
                "I stopped by the store and started cooking.",
                "I dropped my phone and started crying.",
                "Which is where I live.",
                "Home is where I work.",
                "The coach raised the bar to new heights.",
                "I go to the gym now.",
            })
    void noValueIsReadFrom(String line) {
        List<CandidateFact> facts = facts(line, T);
        assertThat(facts)
                .filteredOn(f -> !ValueHint.isHint(f.tags()))
                .extracting(CandidateFact::content)
                .isEmpty();
        // A hint is read only against what the speaker has said before: alone, it stores nothing.
        assertThat(
                        new ChangePlanner(new DedupPolicy(), "test")
                                .plan(
                                        DANA,
                                        Optional.of("s1"),
                                        "conversation",
                                        facts,
                                        axes(facts, 0),
                                        new UserMemories(100),
                                        T))
                .isEmpty();
    }
}
