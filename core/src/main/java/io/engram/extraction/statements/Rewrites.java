package io.engram.extraction.statements;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sentence's words rewritten before {@link Clauses} splits it, when they tell a value or a change
 * in words no clause shape reads: "Budget's now …", "I got an Audi and sold my BMW", "Nvidia is
 * where I work now". Each rewrite is tried only when its cue words are there.
 */
final class Rewrites {

    private Rewrites() {}

    /**
     * A sentence's words rewritten before it is split, when they tell a change in words no clause
     * shape reads; each tried only when its cue word is there. In order:
     *
     * <ul>
     *   <li>"I left Microsoft and joined Netflix", "quit Acme to join Initech": a job for a job, so
     *       "joined" is where one works.
     *   <li>"I'm in Tucson now, we moved last weekend": where one is, said with a move, is home.
     *   <li>"Meta offered me a job and I took it", "I got an offer from Oracle and took it": an
     *       offer accepted.
     *   <li>"I switched jobs, I am at Google now": at a new job, "at" is where one works.
     * </ul>
     */
    record Rewrite(List<String> cues, Pattern pattern, String replacement) {
        String apply(String s) {
            for (String cue : cues) {
                if (s.contains(cue)) {
                    // "$L1": the first group in lower case ("Rent is" is "my rent is").
                    return replacement.contains("$L1")
                            ? pattern.matcher(s)
                                    .replaceAll(
                                            mr ->
                                                    Matcher.quoteReplacement(
                                                            replacement.replace(
                                                                    "$L1",
                                                                    mr.group(1)
                                                                            .toLowerCase(
                                                                                    Locale.ROOT))))
                            : pattern.matcher(s).replaceAll(replacement);
                }
            }
            return s;
        }
    }

    private static final List<Rewrite> REWRITES =
            List.of(
                    new Rewrite(
                            List.of(" join", " for a "),
                            Pattern.compile(
                                    "\\b((?i:left|quit) (?:my job at )?[A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3}),? (?i:and (?:then )?joined|to join|for a (?:new )?(?:job|position|role) (?:at|with)) (?=[A-Z])"),
                            "$1 and now work at "),
                    new Rewrite(
                            List.of(" moved", " relocated"),
                            Pattern.compile(
                                    "\\bI am (?i:now )?in ([A-Z][\\p{L}.'-]+(?: [A-Z][\\p{L}.'-]+)?)(?= now\\b|,|\\.|!|$)"),
                            "I live in $1"),
                    new Rewrite(
                            List.of(" offered me "),
                            Pattern.compile(
                                    "\\b([A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3}) offered me (?:a|the|an) (?:job|position|role)(?: there)?,? and I (?:took|accepted) it\\b"),
                            "I accepted an offer from $1"),
                    new Rewrite(
                            List.of(" offer "),
                            Pattern.compile(
                                    "(?i)\\b(?:got|received) (?:an?|the) (?:job )?offer ((?:from|at) (?-i:[A-Z])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z])[\\p{L}0-9&.'-]*){0,3}),? and (?:took|accepted) it\\b"),
                            "accepted an offer $1"),
                    // "I got an Audi and sold my BMW", "sold the BMW and bought an Audi".
                    new Rewrite(
                            List.of("old "),
                            Pattern.compile(
                                    "(?i)\\b(?:got|bought|picked up) ((?:an?|the) [\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?) and (?:then )?sold ((?:my |our |the )?[\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?)(?=[,.;!]|$| now\\b)"),
                            "switched from $2 to $1"),
                    new Rewrite(
                            List.of("old ", "got rid of "),
                            Pattern.compile(
                                    "(?i)\\b(?:sold|got rid of) ((?:my |our |the )?[\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?) and (?:then )?(?:got|bought|picked up) ((?:an?|the) [\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?)(?=[,.;!]|$| now\\b| instead\\b)"),
                            "switched from $1 to $2"),
                    // "I cancelled Equinox and joined Planet Fitness", "dropped Spanish and
                    // started learning Japanese", "gave up guitar and took up the drums".
                    new Rewrite(
                            List.of(
                                    "ancel",
                                    "quit ",
                                    "dropped ",
                                    "ditched ",
                                    "gave up ",
                                    "stopped "),
                            Pattern.compile(
                                    "(?i)\\b(?:cancell?ed|quit|dropped|ditched|gave up|stopped) ((?:my |our |the )?(?!(?:job|work|school|it|that|this|everything|by|at|in|on|for|to|with|off|over)\\b)[\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?) and (?:then )?(?:joined|signed up (?:for|with|at)|switched to|took up|picked up|started (?:learning|going to|playing|using|taking)) ((?:an?|the) )?([\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?)(?=[,.;!]|$| now\\b| instead\\b)"),
                            "switched from $1 to $2$3"),
                    // "Cancelled Spotify, I'm on Apple Music", "closed my Chase account and
                    // moved everything to Ally", "left The Foxes and joined a new band, Night
                    // Owls", "stopped keto, now I just do intermittent fasting": only a name, or
                    // one word, left for another ("Cancelled plans with Sarah, I'm on call" is
                    // none).
                    new Rewrite(
                            List.of(
                                    "ancel", "uit ", "ropped ", "itched ", "ave up ", "ive up ",
                                    "topped ", "losed ", "eft "),
                            Pattern.compile(
                                    "(?i)\\b(?:cancell?ed|quit|dropped|ditched|gave up(?: on)?|give up(?: on)?|stopped|closed|left) ((?:my |our )?(?-i:[A-Z0-9])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z0-9])[\\p{L}0-9&.'-]*){0,3}(?: (?:account|membership|subscription|plan|card|policy))?|(?!(?:job|work|school|it|that|this|everything|home|early|town|smoking|drinking|whining|complaining|the|a|an|my|our|your|his|her|their|with|for|to|at|in|on|of|by|from|about|plans|up|out|off|playing|doing|using|taking|going|eating|drinking|learning|working|being)\\b)[a-z]+(?: (?!(?:job|work|school|it|that|this|everything|home|early|town|smoking|drinking|whining|complaining|the|a|an|my|our|your|his|her|their|with|for|to|at|in|on|of|by|from|about|plans|up|out|off|playing|doing|using|taking|going|eating|drinking|learning|working|being)\\b)[a-z]+){0,2})(?:,? (?:and )?(?:then )?(?:moved (?:everything|it all|my money|my accounts?|my savings|over) to|went with|signed with|joined(?: a new [a-z]+,?(?: called| named)?)?)|,? (?:and )?(?:now )?I am (?:now )?(?:on|doing|using|with|learning|playing)|,? (?:and )?(?:now )?(?:learning|doing|using|playing|driving)|,? (?:and )?(?:now )?I (?:just )?(?:do|use)) ((?:an?|the) )?((?-i:[A-Z0-9])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z0-9])[\\p{L}0-9&.'-]*){0,3}|(?!(?:my|our|his|her|their|your|some|a|an|the|friends|family|it|that|this)\\b)[a-z]+(?: [a-z]+){0,2})(?=[,.;!]|$| now\\b| instead\\b| these days\\b| on \\b| downtown\\b)"),
                            "switched from $1 to $2$3"),
                    // "Alien used to be my favorite, now it's Arrival": the new value of whatever
                    // the old one is stored as.
                    new Rewrite(
                            List.of(" used to be my "),
                            Pattern.compile(
                                    "(?i)^([\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?) used to be my (?:favou?rite|fave|go-to)[,;]? (?:but )?(?:now |these days )?(?:it is|it's|it has to be) ([\\p{L}0-9][\\p{L}0-9&.' -]{0,30}?)(?=[,.;!]|$| now\\b)"),
                            "I switched from $1 to $2"),
                    // "I'm at Meta these days", "Nvidia is where I work now", "just finished my
                    // first month at Nvidia": where one works.
                    new Rewrite(
                            List.of(" these days", " nowadays"),
                            Pattern.compile(
                                    "\\bI am (?:now )?(?:at|with) ([A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3}) (?=these days|nowadays)"),
                            "I work at $1 "),
                    new Rewrite(
                            List.of(" is where I "),
                            Pattern.compile(
                                    "\\b(?!(?:That|This|It|Which|What|Here|There|Home|Where|Everything)\\b)([A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3}) is where I (work|study)\\b"),
                            "I $2 at $1"),
                    new Rewrite(
                            List.of(" is where I live"),
                            Pattern.compile(
                                    "\\b(?!(?:That|This|It|Which|What|Here|There|Home|Where|Everything)\\b)([A-Z][\\p{L}.'-]+(?: [A-Z][\\p{L}.'-]+)?) is where I live\\b"),
                            "I live in $1"),
                    new Rewrite(
                            List.of(" my first "),
                            Pattern.compile(
                                    "(?i)\\b(?:I )?(?:have )?(?:just )?(?:finished|completed|wrapped up|survived) my first (?:day|week|month|year|shift) (?:at|with) (?=(?-i:[A-Z]))"),
                            "I work at "),
                    // "landlord raised the rent, it's $1,650 a month now": the new amount.
                    new Rewrite(
                            List.of(" it is ", " it's "),
                            Pattern.compile(
                                    "(?i)^(?:(?:the |my |our )?(?:landlord|boss|company|employer|they|we|I) )?(?:raised|increased|bumped|upped|hiked|lowered|cut|dropped|changed) (?:the|my|our) ([a-z]+(?: [a-z]+)?)\\b[^.;]{0,20}?[.;,!]?\\s*(?:and )?it(?: is|'s|’s) (?:now )?([$€£] ?\\d[\\d,.]*k?(?: (?:a|per) (?:month|year|week))?)"),
                            "my $1 is $2"),
                    // "baby number three arrived on Tuesday!": how many children.
                    new Rewrite(
                            List.of("aby number ", "aby #", "aby no"),
                            Pattern.compile(
                                    "(?i)\\bbaby (?:number |#|no\\.? ?)(two|three|four|five|six|2|3|4|5|6) (?:arrived|was born|is here|came)(?: (?:on|last|this|yesterday|today|early|at)\\b[^!.,;]*)?"),
                            "I have $1 kids now"),
                    // "new favorite food: tacos al pastor", "favorite movie is now Dune", "fav
                    // food is sushi": a favorite said without "my" at the start.
                    new Rewrite(
                            List.of("avorite", "avourite", "fav ", "fave ", "Fav ", "Fave "),
                            Pattern.compile(
                                    "^(?i:(?:my )?new )?(?i:favou?rite|fave?) ([a-z]+(?: [a-z]+)?)(?::| is(?: now)?)\\s+"),
                            "my favorite $1 is "),
                    // "new roommate is Jordan": one of a kind, said without "my".
                    new Rewrite(
                            List.of("new ", "New "),
                            Pattern.compile(
                                    "^(?i:new) (roommate|boss|manager|doctor|dentist|therapist|landlord|coach|trainer|number|phone number|email|address|car|phone|gym|bank|job title|title|partner|girlfriend|boyfriend)(?::| is)\\s+"),
                            "my new $1 is "),
                    // "I've decided autumn is my favourite season": the favorite, without the
                    // words that lead to it.
                    new Rewrite(
                            List.of("decided", "think", "guess", " say", "ngl", "tbh", "onestly"),
                            Pattern.compile(
                                    "^(?i:i(?:'ve| have) decided|i (?:think|guess|feel like)|i(?:'d| would) say|ngl|tbh|honestly)(?: that)?,? (?=\\S+(?: \\S+){0,4} (?:is|are) (?:now |officially )?my (?:new )?(?:fav|fave|favou?rite)\\b)"),
                            ""),
                    // "Rent is $1,400", "major's econ": one's own, said without "my".
                    new Rewrite(
                            List.of(" is ", "'s "),
                            Pattern.compile(
                                    "^(?i:(rent|salary|pay|budget|mortgage|commute|address|email|phone number|birthday|gym|bank|doctor|dentist|therapist|manager|boss|roommate|landlord|major|username|handle))(?:'s| is) "),
                            "my $L1 is "),
                    // "chloe's my best friend these days", "Austin's home now": "'s" before
                    // "my" or "home" is "is".
                    new Rewrite(
                            List.of("'s my ", "’s my ", "'s home", "’s home"),
                            Pattern.compile("(?<=\\p{L})['’]s (?=my |home\\b)"),
                            " is "),
                    // "Austin has been home for three weeks now": home now.
                    new Rewrite(
                            List.of(" been home "),
                            Pattern.compile(
                                    "(?<=^[A-Z][\\p{L}.'-]{1,30}) has been home for (?:a|an|one|two|three|four|five|six|a few|a couple of|\\d+) (?:days?|weeks?|months?|years?)(?: now)?"),
                            " is home now"),
                    // "Big Arsenal fan", "huge Celtics fan here": the speaker's team.
                    new Rewrite(
                            List.of(" fan", " supporter"),
                            Pattern.compile(
                                    "^(?i:big|huge|massive|die-?hard|die hard|lifelong) ((?-i:[A-Z])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z])[\\p{L}0-9&.'-]*){0,2}) (?i:fan|supporter)\\b(?: here)?(?: (?:lol|haha|tbh|ngl|btw))*"),
                            "I am a huge $1 fan"),
                    // "I weigh 180 pounds", "down to 165 lbs": a weight.
                    new Rewrite(
                            List.of("weigh", "down to ", "up to "),
                            Pattern.compile(
                                    "(?i)(?:\\bI (?:now |currently )?weigh(?: about| around)?|^(?:I am (?:now )?)?(?:down|up) to) (\\d[\\d.,]* ?(?:pounds|lbs|kg|kilos|kilograms)\\b|[1-3]\\d{2}(?:\\.\\d)?(?=(?: (?:as of (?:this morning|today|now)|this morning|today|on the scale))?(?:$|[ !.,]+(?:finally|lol)|[!.,])))(?: (?:as of (?:this morning|today|now)|this morning|today|on the scale))?"),
                            "my weight is $1"),
                    // "New job pays $110k": the salary.
                    new Rewrite(
                            List.of(" pays"),
                            Pattern.compile(
                                    "(?i)\\b(?:my |the )?new (?:job|role|position|gig) (?:now )?pays(?: me)? (?=[$€£]|\\d)"),
                            "my salary is "),
                    // "I started eating fish again, so pescatarian now": the speaker's own diet,
                    // when the sentence is of the speaker.
                    new Rewrite(
                            List.of(" so "),
                            Pattern.compile(
                                    "^((?:I|We)\\b[^,.!;]*|(?:Just |Finally |Recently )?(?:Started|Stopped|Quit|Gave up|Went|Switched|Cut out|Added)\\b[^,.!;]*),? so (?:I am |I'm )?(?:a |an )?(vegan|vegetarian|pescatarian)(?: now)?(?=[.!,;]|$)"),
                            "$1, I am $2 now"),
                    // "Just signed a lease in Austin": a lease signed is a move.
                    new Rewrite(
                            List.of(" lease "),
                            Pattern.compile(
                                    "(?i)\\bsigned (?:a|the|our|my) (?:new )?lease (?:on (?:a|an|the) [\\p{L} -]{1,30}? )?(?:in|for a place in) (?=(?-i:[A-Z]))"),
                            "moved to "),
                    // "Chris proposed last night and I said yes!": engaged to Chris.
                    new Rewrite(
                            List.of(" proposed"),
                            Pattern.compile(
                                    "^([A-Z][\\p{L}'-]+) (?:finally )?proposed(?: to me)?(?: (?:last night|yesterday|today|tonight|this (?:morning|weekend|week)|last (?:week|weekend|month)|on (?:the beach|vacation|our anniversary|[A-Z][a-z]+day)))?,? and I said yes(?=[!.,;]|$)"),
                            "I am engaged to $1"),
                    // "I dyed my hair red", "dyed my hair bright red over the weekend": the
                    // hair's color now.
                    new Rewrite(
                            List.of("dyed ", "colored ", "coloured "),
                            Pattern.compile(
                                    "(?i)(?:\\bI |^)(?:just |finally )?(?:dyed|colou?red) my hair ([a-z]+(?: [a-z]+)?)(?: (?:over the weekend|yesterday|today|last (?:week|weekend|night)|this (?:morning|week|weekend)))?(?=[,.!;]|$)"),
                            "my hair is $1 now"),
                    // "I've got brown hair, pretty boring really": the hair's color.
                    new Rewrite(
                            List.of(" hair"),
                            Pattern.compile(
                                    "(?i)^I (?:have|have got|got) (?:(?:long|short|curly|straight|wavy|natural) )?((?:dark |light )?(?:blonde?|brown|black|red|ginger|grey|gray|auburn|pink|blue|purple|silver|white)) hair\\b"),
                            "my hair is $1"),
                    // "We decided to cap the wedding at $15k": the wedding's budget.
                    new Rewrite(
                            List.of(" cap "),
                            Pattern.compile(
                                    "(?i)\\b(?:I|we) (?:have )?(?:decided to |agreed to |are going to |will )?cap (?:the|our|my) ([\\p{L}]+(?: [\\p{L}]+)?) (?:budget )?at ([$€£] ?\\d[\\d,.]*k?)"),
                            "my budget for the $1 is $2"),
                    // "I'm down to 165 pounds": the weight now.
                    new Rewrite(
                            List.of(" down to ", " up to "),
                            Pattern.compile(
                                    "(?i)\\bI am (?:now )?(?:down|up) to (\\d[\\d.,]* ?(?:pounds|lbs|kg|kilos|kilograms|stone))\\b"),
                            "my weight is $1"),
                    // "I've called Tacoma home since March".
                    new Rewrite(
                            List.of(" called ", " call "),
                            Pattern.compile(
                                    "\\b(I|[Ww]e) (?:have called|now call|call) ([A-Z][\\p{L}.'-]+(?: [A-Z][\\p{L}.'-]+)?) home\\b"),
                            "$1 live in $2"),
                    // "I have a boyfriend now, his name is Leo".
                    new Rewrite(
                            List.of(" name is "),
                            Pattern.compile(
                                    "(?i)\\bI (?:have|got) a (?:new )?(boyfriend|girlfriend|partner|fianc[eé]e?|husband|wife)(?: now)?,? (?:his|her|their) name is (?=(?-i:[A-Z]))"),
                            "my $1 is "),
                    // "I work out at Equinox", "I go to 24 Hour Fitness now": one's gym.
                    new Rewrite(
                            List.of(" out at ", " train at ", " lift at "),
                            Pattern.compile(
                                    "\\bI (?:now |currently |mostly )?(?:work out|train|lift) at ([A-Z0-9][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3})(?=[,.;!]|$| now\\b| these days\\b)"),
                            "my gym is $1"),
                    new Rewrite(
                            List.of(" go to "),
                            Pattern.compile(
                                    "\\bI (?:now |currently )?go to ((?:[A-Z0-9][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3} )?(?:Fitness|Gym|CrossFit|Athletic Club|Health Club)(?: [A-Z][\\p{L}'-]*)?) (?=now\\b|these days\\b)"),
                            "my gym is $1 "),
                    // "We're settled in Nashville", "headed to Nashville for good": home.
                    new Rewrite(
                            List.of(" settled in "),
                            Pattern.compile(
                                    "\\b(I am|[Ww]e are) (?:now |finally |all |happily )?settled in (?=(?-i:[A-Z]))"),
                            "$1 living in "),
                    new Rewrite(
                            List.of(" for good"),
                            Pattern.compile(
                                    "(?i)\\b(?:headed|went|came|relocated|moved)(?: back)? to ((?-i:[A-Z][\\p{L}.'-]+(?: [A-Z][\\p{L}.'-]+)?)) for good\\b"),
                            "moved to $1"),
                    // "I left accounting to become a photographer": the new occupation.
                    new Rewrite(
                            List.of(" to become "),
                            Pattern.compile(
                                    "(?i)\\b(?:left|quit) (?:my job (?:as an? [a-z]+ )?|my |the )?[\\p{L} -]{1,30}? to become (?=an? )"),
                            "became "),
                    // "Please update my email to …", "They bumped my salary to …": the new value.
                    new Rewrite(
                            List.of(" to "),
                            Pattern.compile(
                                    "(?i)^(?:(?:they|he|she|hr|my boss|the company|we|I|please) )?(?:just |finally )?(?:update|updated|change|changed|set|bump|bumped|raise|raised|increase|increased|lower|lowered|cut) (?:my|our) ((?:[a-z]+ )?(?:email|e-mail|address|number|phone number|salary|pay|rent|budget|limit|username)) to "),
                            "my $1 is "),
                    // "Mark and I finalized our divorce".
                    new Rewrite(
                            List.of(" divorce"),
                            Pattern.compile(
                                    "(?i)\\b(?:finali[sz]ed|finished|completed) (?:our|my|the) divorce\\b"),
                            "got divorced"),
                    new Rewrite(
                            List.of(" divorce "),
                            Pattern.compile(
                                    "(?i)\\bmy divorce (?:went through|is final|was finali[sz]ed|came through)"),
                            "I got divorced"),
                    // "Say hi to my new boyfriend, Marcus!".
                    new Rewrite(
                            List.of(" my new "),
                            Pattern.compile(
                                    "(?i)\\b(?:say hi to|meet|this is|introducing) my new (boyfriend|girlfriend|partner|husband|wife|fianc[eé]e?),? (?=(?-i:[A-Z]))"),
                            "my $1 is "),
                    // "Career change: I'm now a teacher": a label before the sentence.
                    new Rewrite(
                            List.of(": "),
                            Pattern.compile("^(?:[A-Za-z]+ ){0,2}[A-Za-z]+:\\s+(?=(?:I|we|my)\\b)"),
                            ""),
                    // "We renamed our dog to Buddy": what it is called now.
                    new Rewrite(
                            List.of("renamed "),
                            Pattern.compile(
                                    "(?i)\\b(?:I|we) (?:just |finally )?renamed (?:my|our|the) ([a-z]+) (?:to )?(?=(?-i:[A-Z]))"),
                            "my $1 is called "),
                    // "I'm in a relationship with a guy called Ben now".
                    new Rewrite(
                            List.of(" relationship with "),
                            Pattern.compile(
                                    "(?i)\\bI am (?:now |currently )?in a (?:serious |committed )?relationship with (?:an? (?:guy|girl|man|woman|someone) (?:named|called) )?(?=(?-i:[A-Z]))"),
                            "I am dating "),
                    // "Emma and I aren't together anymore": a break-up.
                    new Rewrite(
                            List.of(" together"),
                            Pattern.compile(
                                    "(?i)\\b(I|we) (?:are|am) (?:not|no longer) together(?: any ?more)?\\b"),
                            "$1 broke up"),
                    // "I started dating a guy named Luis".
                    new Rewrite(
                            List.of("dating ", "seeing "),
                            Pattern.compile(
                                    "(?i)\\bI (?:just |recently )?(?:started|began|have been) (?:dating|seeing) (?:an? (?:guy|girl|man|woman|someone) (?:named|called) )?(?=(?-i:[A-Z]))"),
                            "I am dating "),
                    // "Our landlord raised the rent to $2,000": the rent changed.
                    new Rewrite(
                            List.of(" to "),
                            Pattern.compile(
                                    "(?i)^(?:our|my|the) [a-z]+ (?:just )?(?:raised|increased|upped|bumped up|bumped|lowered|cut|reduced) (?:the|my|our) ((?:[a-z]+ )?(?:rent|price|fee|fees|salary|pay|rate|limit|budget|premium|tuition|deductible)) to "),
                            "my $1 was changed to "),
                    new Rewrite(
                            List.of(" jobs"),
                            Pattern.compile(
                                    "\\b((?i:switched|changed) jobs),? (?i:and )?I am (?i:now )?(?i:at|with) (?=[A-Z])"),
                            "$1 and now work at "));

    /** "Budget's now $6,000", "The rent's $2,000": a value of the speaker's, its owner left out. */
    private static final Pattern VALUE_NOUN_IS =
            Pattern.compile(
                    "(?i)^(?:the |our )?(budget|rent|salary|pay|mortgage|deadline|address|number|email|limit)['’]s (?=now |currently |\\$|\\d)");

    /** "my birthday's on …": the "'s" of a noun after "my" is "is". */
    private static final Pattern MY_NOUN_IS =
            Pattern.compile("(?i)\\b(my [\\p{L}-]+)['’]s (on|in|at|the|a|an|\\d)");

    /** The sentence with every rewrite applied, in order. */
    static String apply(String sentence) {
        String s = MY_NOUN_IS.matcher(sentence).replaceAll("$1 is $2");
        s = DeviceNames.written(s);
        s =
                VALUE_NOUN_IS
                        .matcher(s)
                        .replaceAll(v -> "My " + v.group(1).toLowerCase(Locale.ROOT) + " is ");
        for (Rewrite rewrite : REWRITES) {
            s = rewrite.apply(s);
        }
        for (Rewrite rewrite : NewsRewrites.ALL) {
            s = rewrite.apply(s);
        }
        return s;
    }
}
