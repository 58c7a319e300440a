package io.engram.extraction;

import static io.engram.extraction.DanaTells.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.statements.ValueHint;
import io.engram.memory.MemoryChange;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * First statements as chat leaves them: the "I" or "I'm" left out ("play piano, mostly classical",
 * "lactose intolerant, learned that the hard way"), a name typed in lower case after a relation
 * ("my brother jamie"), a team in lower case ("celtic fan since birth"), a condition told as a
 * diagnosis. A later change can only replace what was stored first, so each is read as the
 * statement it is, and the requests and remarks that look like them give nothing.
 */
class ChatWithoutSubjectTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // A name in lower case after a relation is the relation's name.
                "cant do sat sorry, my brother jamie is coming up|Dana has a brother named Jamie.",
                "my cat mochi knocked my coffee off the desk|Dana has a cat named Mochi.",
                "sorry late reply, my son leo had a full meltdown in asda|Dana has a son named Leo.",
                "my girlfriend sam is cooking tonight so im happy|Dana's girlfriend is Sam.",
                "me and my twin sister hannah have the same laugh|Dana has a sister named Hannah.",
                // What the speaker is, "I am" left out.
                "lactose intolerant, learned that the hard way|Dana is lactose intolerant.",
                "ive been veggie since i was 12 so ill eat the sides|Dana is vegetarian.",
                "im colour blind so no idea if this top is brown|Dana is colour blind.",
                "im such a night owl, cant sleep before 2am ever|Dana is a night owl.",
                "i'm a scorpio through and through|Dana is a Scorpio.",
                "im coeliac so pasta night is a no from me|Dana is coeliac.",
                "literally terrified of spiders|Dana is terrified of spiders.",
                "celtic fan since birth, dad had me in a hoops babygrow|Dana is a celtic fan.",
                "im a die hard red sox fan lol|Dana is a red sox fan.",
                "born and bred in swansea so im allowed to moan|Dana was born and bred in Swansea.",
                // A habit or a possession, "I" left out.
                "play piano, mostly classical stuff|Dana plays piano.",
                "wear contacts every day, cant see without them|Dana wears contacts.",
                "have 2 kids, both under 6, so im always tired|Dana has 2 kids.",
                "hate flying so much, have to take a tablet|Dana hates flying.",
                "been playing guitar since i was 14|Dana has been playing guitar.",
                // Where one lives, told by how long one has been there.
                "been in Glasgow 3 yrs now and still not used to the rain|Dana lives in Glasgow.",
                "ive been in Leeds since 2019|Dana lives in Leeds.",
                // A provider told by what it did, or "I'm with/on" it.
                "how embarrassing my monzo card got declined at tesco|Dana banks with Monzo.",
                "my sky broadband is down AGAIN i swear|Dana's broadband provider is Sky.",
                "santander froze my card cuz i bought a coffee|Dana banks with Santander.",
                "sorry no signal again, EE is useless on my road|Dana's carrier is EE.",
                "im on spotify premium family so u can join|Dana has Spotify.",
                "nationwide app wont let me log in to pay u back|Dana banks with Nationwide.",
                "aetna denied my claim AGAIN im so done|Dana's insurer is Aetna.",
                "octopus just put my direct debit up to 180|Dana's energy supplier is Octopus.",
                "im on EE and i get one bar in my kitchen|Dana's carrier is EE.",
                "barclays app down AGAIN, cant even pay the window cleaner|Dana banks with"
                        + " Barclays.",
                // A car or phone named by its model, beside what it did.
                "my fiesta is making that clunking noise again ffs|Dana drives a Fiesta.",
                "my civic hit 150k miles today lol|Dana drives a Civic.",
                "my iphone 11 battery is dead by lunch every day|Dana's phone is an iPhone 11.",
                // What one is, told by what it means for them; one in a role, by name.
                "being a dental hygienist means i see 20 mouths a day|Dana is a dental hygienist.",
                "my boss karen literally cc'd HR about the coffee machine|Dana's boss is Karen.",
                // Where one lives or works, told by what of theirs is there.
                "tho our landlord in peckham STILL hasnt fixed the boiler|Dana lives in Peckham.",
                "we're in a shared house in brixton, 5 of us|Dana lives in Brixton.",
                "just paid the rent lol, living in london is a literal scam|Dana lives in London.",
                "my manager at tesco had me on self checkouts all shift|Dana works at Tesco.",
                "on my break at costa rn, so tired|Dana works at Costa.",
                "10 yrs at john lewis now and head of menswear|Dana works at John Lewis.",
                "wfh today, our office in canary wharf is like a fridge|Dana's office is in"
                        + " Canary Wharf.",
                // A condition told as its diagnosis.
                "got diagnosed with adhd last year|Dana has adhd.",
                "I was diagnosed with type 1 diabetes in 2015|Dana has type 1 diabetes.",
            })
    void aStatementChatLeavesTheSubjectOfIsRead(String said, String stored) {
        assertThat(facts(said, T)).extracting(CandidateFact::content).contains(stored);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "play this song again pls",
                "wear a coat its freezing out",
                "have fun tonight!!",
                "speak soon x",
                "love that for you",
                "vegan food is honestly the best",
                "my son just texted me from school",
                "my dog loves the beach so much",
                "my mum will call u later",
                "my brother said hi",
                "my sister texted me at 6am",
                "i'm a huge fan",
                "been running longer since our last chat",
                "being a fan of them is pain",
                "celtic fan base is toxic tbh",
                "I've been in the Army for 3 years",
                "ive been in a relationship for 3 years",
                "I've been in Vegas for 3 days",
                "thinking of switching to monzo tbh",
                "closed my barclays account finally",
                "the sky is so blue today",
                "three of us went to the pub",
                "my sisters monzo card got declined lol",
                "Apple Music gave me 3 free months, haven't even opened it",
                "my old manager at tesco was awful",
                "her landlord in leeds is a nightmare",
                "my team at work is great",
                "living in london would be a dream",
                "our landlord in town never fixes anything",
                "my red hair is fading already, need a redo lol",
                "my golf swing is awful, the driving range was embarrassing",
                "my jazz playlist is so good for driving",
                "my focus is terrible today, the car journey was long",
                "being a mom is awesome",
            })
    void requestsAndRemarksThatLookLikeThemGiveNothing(String said) {
        assertThat(facts(said, T))
                .filteredOn(f -> !ValueHint.isHint(f.tags()))
                .extracting(CandidateFact::content)
                .as(said)
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "im veggie so ill just have the halloumi burger|been fully vegan since jan and feel"
                        + " loads better|Dana is vegetarian.|Dana is vegan.",
                "my bf marcus is obsessed w fantasy football|so marcus and i are done. like actually"
                        + " done this time|Dana's boyfriend is Marcus.|Dana broke up with Marcus.",
                // A provider or a belonging told in passing, and its change.
                "im with vodafone|switched to three yesterday lol the signal is decent now"
                        + "|Dana's carrier is Vodafone.|Dana's carrier is Three.",
                "I'm with British Gas.|octopus switched us over today, shud save a bit"
                        + "|Dana's energy supplier is British Gas.|Dana's energy supplier is Octopus.",
                "halifax froze my card AGAIN|opened a starling acc, all my wages go in there now"
                        + "|Dana banks with Halifax.|Dana banks with Starling.",
                "My boyfriend is Tom.|so me n tom are done 😢 but ive been seeing this guy jake for a"
                        + " few weeks now|Dana's boyfriend is Tom.|Dana is dating Jake.",
                "I'm vegetarian.|gone fully vegan now!! no cheese is the hardest part"
                        + "|Dana is vegetarian.|Dana is vegan.",
                "My hair is brown.|went blonde!! pics later, the hairdresser took 4 hours"
                        + "|Dana's hair is brown.|Dana's hair is blonde.",
                "My phone is an iPhone 11.|my iphone died so I got a Galaxy S23"
                        + "|Dana's phone is an iPhone 11.|Dana's phone is a Galaxy S23.",
            })
    void aLaterChangeReplacesWhatChatStatedFirst(
            String before, String after, String old, String stored) {
        Told told = tell(before, T, after, T.plus(Duration.ofDays(30)));
        assertThat(told.planned())
                .filteredOn(p -> p.change() instanceof MemoryChange.Superseded)
                .extracting(
                        p ->
                                ((MemoryChange.Superseded) p.change()).old().content()
                                        + " -> "
                                        + p.change().memory().content())
                .as(after)
                .contains(old + " -> " + stored);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "im with vodafone|my sister switched to three and loves it",
                "im with vodafone|thinking of switching to three tbh",
                "I bank with Chase.|my dad closed his accounts and moved everything to Ally",
                "My hair is brown.|i went red when he said that lol so embarrassing",
                "I go to PureGym.|my sister joined the david lloyd lol",
                "I go to Gold's Gym.|almost switched to LA Fitness but stayed at Gold's",
                "I'm with AT&T.|everyone keeps telling me to switch to Mint Mobile but I'm still"
                        + " on at&t",
                // A second dog is one more, and its name is no count.
                "We've got one dog, a lab called Murphy.|we got a second dog!! whippet called sage",
                "my bf marcus is obsessed w fantasy football|marcus and i are done with the kitchen"
                        + " finally",
            })
    void anAdditionOrADoneJobReplacesNothing(String before, String after) {
        supersedesNothing(before, after);
    }
}
