package io.engram.extraction.statements;

import java.util.regex.Pattern;

/**
 * The clause shapes {@link StatementExtractor} reads, one regular expression each, matched against
 * a clause {@link Clauses} cleaned (contractions written out, openers dropped).
 */
final class StatementPatterns {

    private StatementPatterns() {}

    static final String ADVERBS =
            "(?:(?:really|truly|absolutely|totally|also|just|still|especially|definitely|do|now"
                    + "|currently|actually|genuinely|seriously|kind of|sort of|pretty much|always"
                    + "|honestly|literally|so|very|super|more|mostly|mainly) )*";
    static final Pattern HEDGE =
            Pattern.compile(
                    "(?i)\\b(maybe|perhaps|might|probably|not sure|i guess|i think|i suppose|i wonder|if i|if we|hopefully|possibly|someday|one day|wish|hypothetically|let us say|suppose|imagine|what if|have not decided|not decided|undecided|would be)\\b");

    /** A verb in capitals ("I just LOVE Mondays"): said with irony more often than not. */
    static final Pattern SHOUTED = Pattern.compile("\\b(LOVE|LIKE|ADORE|ENJOY|HATE)\\b");

    /** "Sara and I …", "my wife and I …": a statement of the speaker and a companion. */
    static final Pattern COMPANION =
            Pattern.compile(
                    "^(?<with>(?:[A-Z][\\p{L}'-]+|(?i:my) (?:[\\p{L}-]+ ){0,1}[\\p{L}-]+)) and I (?<rest>.+)$");

    static final Pattern NEGATION = Pattern.compile("(?i)\\b(not|never|no longer|no)\\b");

    static final Pattern POSSESSIVE_COPULA =
            Pattern.compile(
                    "(?i)^(?:my|our|the(?= (?:[\\p{L}-]+ ){0,3}(?:budget|deadline|address|limit|target|due date|wedding date)\\b)) (?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?<cop>is|are|has been|have been) (?:now |actually |still |officially |currently |definitely )?(?<val>.+)$");
    static final Pattern POSSESSIVE_CHANGE =
            Pattern.compile(
                    "(?i)^(?:(?:my|our|the(?= (?:[\\p{L}-]+ ){0,3}(?:budget|deadline|limit|target)\\b)) |(?=(?:rent|salary|budget|mortgage|tuition)\\b))(?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?:just |has )?(?:went|gone|go|going|is going|has gone|was|got|has been)? ?(?:up|down|raised|increased|decreased|bumped up|bumped|lowered|cut|changed|moved|rose|dropped|grew|jumped|is now|been raised|been increased)(?: up| down)? to (?<val>.+)$");

    /**
     * "My daughter just turned 6": a relative's new age, read as the value "my daughter is" gives.
     */
    static final Pattern POSSESSIVE_TURNED =
            Pattern.compile(
                    "(?i)^(?:my|our) (?<attr>[\\p{L}-]+(?: [\\p{L}-]+)??) (?:just |recently |finally )?turned (?<val>\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)(?: years old)?(?: (?:yesterday|today|this (?:week|month|year)|last (?:week|month|year|[a-z]+day)|on .{1,30}))?$");

    /** "My son just had his 5th birthday": a relative's new age. */
    static final Pattern POSSESSIVE_BIRTHDAY =
            Pattern.compile(
                    "(?i)^(?:my|our) (?<attr>[\\p{L}-]+(?: [\\p{L}-]+)??) (?:just |recently )?(?:had|celebrated|turned) (?:his|her|their) (?<val>\\d{1,3})(?:st|nd|rd|th) birthday(?: .*)?$");

    /** "I can spend up to $3,500 on the trip": a budget, worded as what one can spend. */
    static final Pattern CAN_SPEND =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:can|could|will|am able to|are able to|only want to|want to|would like to|plan to|am willing to|are willing to) (?:only |now |actually |still )?(?:spend|afford|pay|go|stretch|go as high as) (?:up to |to |at most |about |around |roughly |no more than |a maximum of |max )?(?<val>[$€£] ?\\d[\\d,.]*k?|\\d[\\d,.]*k? ?(?:dollars|euros|pounds|bucks))(?: (?:on|for) (?<what>(?:the|my|our|this|that) [\\p{L} -]{2,40}))?$");

    static final Pattern SET_TO =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |have |have just |finally |am |are )?(?:raised|increased|upped|bumped|lowered|cut|changed|switched|moved|set|reduced|adjusted|doubled|updated|raising|increasing|upping|bumping|lowering|cutting|changing|reducing|adjusting) (?:my|our|the) (?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?:up |down |over )?to (?<val>.+)$");
    static final Pattern CHANGED_NAME =
            Pattern.compile(
                    "(?i)^(?:please )?(?:call me|you can call me|i go by|i now go by|i (?:prefer|would rather|would like) to be called|(?:everyone|everybody|people|friends|my friends) (?:now )?calls? me) (?<val>(?-i:[A-Z])[\\p{L}'’-]+(?: (?-i:[A-Z])[\\p{L}'’-]+)?)(?: .*)?$");
    static final Pattern INVERTED_FAVORITE =
            Pattern.compile(
                    "(?i)^(?<val>[^,]{1,50}?) (?:is|are|has become|have become|became|(?:has|have) taken over as|took over as) (?:now |definitely |probably |still |totally |by far |officially |easily |hands down |honestly )?my (?:new |all-time |all time |absolute |current )?(?<attr>favou?rite(?: [\\p{L}-]+){1,2}|fave?(?: [\\p{L}-]+)?|top pick|(?:number one|#1) (?!(?:goal|goals|priority|priorities|reason|reasons|rule|concern|thing|tip|fan|job|focus|wish|dream|supporter|source)\\b)[\\p{L}-]+|go-to(?: [\\p{L}-]+)?|(?:main |biggest )?(?:hobby|hobbies|passion|specialty))(?: ever| of all time| now| these days| nowadays)?(?:, .*)?$");

    static final Pattern LIVES =
            Pattern.compile(
                    "(?i)^(?:I|we) "
                            + ADVERBS
                            + "(?:live|(?:am|are) (?:now |currently |still )?(?:living|based|settled)|reside|have lived|have been living|(?:have )?(?:finally |now )?settled(?: down| into (?:my|our|a|the) (?:new )?(?:place|home|house|apartment|flat|condo))?) (?:in|near|outside|outside of) (?<place>.+)$");

    /**
     * "I grew up in Denver", "I am originally from Ohio": where someone comes from, which says
     * nothing of where they live now.
     */
    static final Pattern ORIGIN =
            Pattern.compile(
                    "(?i)^I (?:(?:actually|originally|really) )?(?:(?<verb>grew up|was (?:actually |really )?born(?: and (?:raised|bred))?|was raised) (?<prep>in|near|outside of|outside)|(?:am|come) (?:originally |actually |really )?from|originally come from) (?<place>.+)$");

    /** "Home is Seattle now": where someone lives, when the place is named. */
    static final Pattern HOME_IS =
            Pattern.compile(
                    "(?i)^(?:home|my home|home for me|home for us|our home) is (?:now |currently )?(?:in )?(?<place>(?-i:[A-Z]).+)$");

    static final Pattern MOVED =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |officially |have |have just |had )?(?:moved|relocated|finished moving|made the move|made the big move)(?: back| out| over| away| down| up)?(?: (?:my family|the family|us|the kids|everyone))?(?: from (?-i:[A-Z])[\\p{L}.' -]{1,40}?)? (?:to|into) (?:(?:my|our|a|the) (?:new |own )?(?:place|home|house|apartment|flat|condo) (?:in|near) )?(?<place>.+)$");

    /** "I work at", "I am working at", "I have been working at": where someone works now. */
    private static final String WORK =
            "(?:work|am "
                    + ADVERBS
                    + "working|have "
                    + ADVERBS
                    + "been working)(?: remotely| full[- ]time| part[- ]time| from home)?";

    static final Pattern WORKS_AT =
            Pattern.compile(
                    "(?i)^I "
                            + ADVERBS
                            + WORK
                            + " (?:at|for) (?<org>.+?)(?: as (?<role>an? .+))?$");
    static final Pattern WORKS_AS =
            Pattern.compile("(?i)^I " + ADVERBS + WORK + " as (?<role>an? .+)$");

    /** "I became a nurse": an occupation, read as "I am a nurse" is. */
    static final Pattern BECAME =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have |have just |have now )?(?:became|become) (?<role>an? (?:[\\p{L}-]+ ){0,3}?[\\p{L}-]+)(?<where> (?:at|for|with|in) (?!(?:\\d|january|february|march|april|may|june|july|august|september|october|november|december)).+?)?(?: (?:last|this) (?:year|month|week|spring|summer|fall|autumn|winter)| in (?:\\d{4}|january|february|march|april|may|june|july|august|september|october|november|december)(?: \\d{4})?)?$");

    /** "I drive a Honda Civic": the car someone has now. */
    static final Pattern DRIVES =
            Pattern.compile(
                    "(?i)^I (?:now |currently |still |just )?(?:drive|am (?:now |currently )?driving) (?<car>an? (?!(?:lot|bit|little|while|ways?|few)\\b).+)$");

    /** "I report to Raj now": someone's boss. */
    static final Pattern REPORTS_TO =
            Pattern.compile(
                    "(?i)^I (?:now |currently |still )?report (?:directly )?to (?<name>(?-i:[A-Z])[\\p{L}'-]+(?: (?-i:[A-Z])[\\p{L}'-]+)?)(?: now| these days)?$");

    /** "I switched gyms to Equinox": the new value of the thing named in the plural. */
    static final Pattern SWITCHED =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have |have just )?(?:switched|changed|moved) (?<attr>[a-z]+)s (?:over )?to (?<val>(?-i:[A-Z]).+)$");

    /** "I got engaged": a new relationship status, with its time when said. */
    static final Pattern GOT_STATE =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |have just |have )?(?:(?:got|gotten) (?<state>engaged|married|divorced)|(?<knot>tied the knot|got hitched)|(?<bare>divorced|separated|married)|(?:am|are) (?:now |officially )?(?<are>divorced|separated))(?<when> .+)?$");

    static final Pattern NEW_JOB =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have |have just )?(?:started|began|got|landed|accepted|took)(?: a| my| the)? (?:new )?(?:full[- ]time |part[- ]time |permanent |remote )?(?:job|position|role|gig)(?: as (?<role>an? [^,]+?))? (?:at|with|for) (?<org>.+)$");
    static final Pattern JOINED_AS =
            Pattern.compile(
                    "(?i)^I (?:just |recently |have |have just )?(?:joined|started at|started working at|started working for) (?<org>(?-i:[A-Z])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z])[\\p{L}0-9&.'-]*){0,3})(?: as (?<role>an? .+))?$");
    static final Pattern PROMOTED =
            Pattern.compile("(?i)^I (?:just )?(?:got|was|have been) promoted to (?<role>.+)$");
    static final Pattern QUIT =
            Pattern.compile(
                    "(?i)^I (?:just |finally |recently )?(?:(?:quit|left) my (?:job|position|role) (?:at|with)|resigned from|(?:was|got) (?:laid off|let go|fired) (?:from|by)) (?<org>.+)$");

    /**
     * "I am now employed by Netflix", "I got hired at the hospital", "I accepted an offer from
     * Stripe": where someone works from now on.
     */
    static final Pattern HIRED =
            Pattern.compile(
                    "(?i)^I (?:am |have been |was |got |just got |recently got |finally got |just |recently )?(?:now |currently )?(?:employed|hired|taken on|accepted (?:an|a job|the|their) offer)(?: on)? (?:by|at|from|with) (?<org>(?!the moment\\b|present\\b|the minute\\b|this (?:point|time)\\b).+?)(?: as (?<role>an? .+?))?(?:,? (?:and|but|so) (?-i:[a-z]).*)?$");

    /** "I got a raise to $95,000": the new salary. */
    static final Pattern RAISE =
            Pattern.compile(
                    "(?i)^I (?:just |finally |recently )?(?:got|received|was given) (?:a |my )?(?:pay |salary )?(?:raise|rise|bump|increase) to (?<val>[$€£] ?\\d[\\d,.]*k?|\\d[\\d,.]*k? ?(?:dollars|euros|pounds|bucks|an hour|a year)?.*)$");

    /** "I just celebrated my 30th birthday": an age. */
    static final Pattern BIRTHDAY =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally )?(?:celebrated|had|turned) my (?<n>\\d{1,3})(?:st|nd|rd|th)(?: birthday(?: .*)?)?$");

    /**
     * "I got a new car, a Mazda", "I bought a new phone: a Pixel": the new value of a belonging,
     * read as "my car is a Mazda".
     */
    static final Pattern NEW_THING =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |have |have just )?(?:got|bought|purchased|have|started seeing|am seeing|found|hired) (?:a|my|our) (?:brand )?new (?<attr>favou?rite [\\p{L}-]+(?: [\\p{L}-]+)?|[\\p{L}-]+(?: [\\p{L}-]+)?)(?:,| -| –|:| named| called) (?<val>(?:an? |the )?(?-i:[A-Z0-9]).+|\\S+@\\S+)$");

    /**
     * "Mike is my team lead now", "Dr. Patel is my new dentist": the person in a role someone has
     * one of, named before it.
     */
    static final Pattern INVERTED_ROLE =
            Pattern.compile(
                    "^(?<val>(?:Dr\\. |Mr\\. |Mrs\\. |Ms\\. )?[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?) (?:is|has become|became) (?i:now )?(?i:my) (?<new>(?i:new) )?(?<attr>(?i:[\\p{L}-]+(?: [\\p{L}-]+)?))$");

    /**
     * "Dune used to be my favorite book, but now it is Hyperion": the new favorite, with the old
     * one named first.
     */
    static final Pattern USED_TO_BE =
            Pattern.compile(
                    "(?i)^.{1,50}? (?:used to be|was|is not|is no longer) my (?<attr>favou?rite (?!anymore|any more|now)[\\p{L}-]+(?: (?!anymore|any more|now)[\\p{L}-]+)?)(?: anymore| any more)?[,;]? (?:but )?(?:now |these days |nowadays )?(?:it is|they are|my favou?rite is|my new favou?rite is) (?<val>.+?)(?: now| these days| nowadays)?$");

    /** "I am a Portland resident now", "I now call Portland home": where someone lives. */
    static final Pattern RESIDENT =
            Pattern.compile(
                    "(?i)^I (?:(?:am|have been) (?:now |currently )?an? (?<place>(?-i:[A-Z])[\\p{L}.'-]+(?: (?-i:[A-Z])[\\p{L}.'-]+){0,2}) (?:resident|local)(?: (?:as of|since) .{1,30})?|(?:now |currently )?call (?<home>(?-i:[A-Z])[\\p{L}.' -]{1,40}?) (?:my )?home)$");

    /** "Nashville is home now": where someone lives, named first. */
    static final Pattern HOME_NAMED_FIRST =
            Pattern.compile(
                    "^(?<place>[A-Z][\\p{L}.-]+(?: [A-Z][\\p{L}.-]+){0,2})(?: is|['’]s| has become| feels like) (?i:(?:my |our )?(?:new )?home)$");

    /** "I started at Google on Monday": a new workplace, named. */
    static final Pattern STARTED_AT =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have |have just )?(?:(?:started|began) (?:working )?at|jumped ship to|moved over to|went over to) (?<org>(?-i:[A-Z]).+?)(?: as (?<role>an? .+?))?$");

    /** "I am now at Oracle as a data scientist": a workplace, with the role there. */
    static final Pattern AT_AS =
            Pattern.compile(
                    "(?i)^I am (?:now |currently )?(?:at|with) (?<org>(?-i:[A-Z]).+?) as (?<role>an? .+)$");

    /** "Today was my first day at Google". */
    static final Pattern FIRST_DAY =
            Pattern.compile(
                    "(?i)^(?:today|yesterday|this|it|this week) (?:was|is|has been) my first (?:day|week|month) (?:of work )?(?:at|with) (?<org>(?-i:[A-Z]).+?)(?: as (?<role>an? .+?))?$");

    /** "Google hired me last month". */
    static final Pattern HIRED_ME =
            Pattern.compile(
                    "^(?<org>[A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3}) (?i:just |finally |recently )?(?i:hired|took on|offered a job to) me(?i: as (?<role>an? [\\p{L} -]+?))?(?<when> (?!to )(?i:.+))?$");

    /** "I changed careers to become a paramedic". */
    static final Pattern CAREER =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have )?(?:(?:changed|switched) (?:careers?|jobs?|fields?)(?: and| to)? (?:became|become|am now|now work as|work as|to be)|(?:retrained|requalified) as) (?<role>an? .+)$");

    /** "Let's make the budget $1,500": a value set in a suggestion of one's own. */
    static final Pattern LETS_MAKE =
            Pattern.compile(
                    "(?i)^let(?:['’]s| us) (?:make|set|raise|bump|increase|lower|change|put|up) (?:the|my|our) (?<attr>(?:[\\p{L}'’-]+ ){0,3}?[\\p{L}'’-]+) (?:to |at )?(?<val>[$€£] ?\\d.*|\\d.*)$");

    /** "I now make $75k": a salary. */
    static final Pattern EARNS =
            Pattern.compile(
                    "(?i)^I (?:now |currently |actually )?(?:make|earn|get paid|bring home|am (?:now |currently )?(?:paid|making|earning)) (?:about |around |roughly |like |almost |nearly |just over |just under |over |under )?(?<val>[$€£] ?\\d[\\d,.]*k?|\\d[\\d,.]*k? (?:dollars|euros|pounds)|\\d{2,3}(?:\\.\\d)?k(?= (?:a|per) year))(?<per> (?:a|an|per) (?:year|month|hour|week))?$");

    /** "I now pay $2,400 in rent": what a recurring cost is. */
    static final Pattern PAYS =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:now |currently |still )?(?:pay|am paying|are paying) (?<val>[$€£] ?\\d[\\d,.]*k?)(?<per> (?:a|per) (?:month|week|year))? (?:in|for) (?:my |our )?(?<attr>rent|mortgage|tuition|childcare|daycare|insurance)(?<per2> (?:a|per) (?:month|week|year))?$");

    /** "You can reach me at dan@b.com now": a new email or number. */
    static final Pattern REACH_ME =
            Pattern.compile(
                    "(?i)^(?:(?:you can |please )?(?:reach|email|contact|text|call) me (?:at|on)|(?:please )?use) (?<val>[\\w.+-]+@[\\w-]+\\.[\\w.]+|\\+?[\\d() .-]{7,20}\\d)(?: from now on| instead| now)?$");

    /** "New number: 555-0199": a labelled new value. */
    static final Pattern NEW_LABEL =
            Pattern.compile(
                    "(?i)^(?:my )?new (?<attr>phone number|number|cell number|cell|email address|email|address|home address)(?: is)?:? (?<val>.+)$");

    /** "I am dating Chris now": someone's partner, by name. */
    static final Pattern DATING =
            Pattern.compile(
                    "(?i)^I (?:am|have been) (?:now |currently )?(?:dating|going out with|in a relationship with|seeing someone (?:named|called))(?: (?:a|this) (?:guy|girl|man|woman|someone|person) (?:named|called))? (?<name>(?-i:[A-Z])[\\p{L}'-]+(?: (?-i:[A-Z])[\\p{L}'-]+)?)(?: (?:for|since) .{1,30}| since| since then)?$");

    /** "Tom and I called off the engagement": engaged no longer. */
    static final Pattern CALLED_OFF =
            Pattern.compile(
                    "(?i)^(?:we|I) (?:just |finally |recently |have )?called off (?:the|our|my) (?:engagement|wedding)(?: .+)?$");

    /** "Jake and I broke up" (read as "we …" with Jake along), "I broke up with Jake". */
    static final Pattern BROKE_UP =
            Pattern.compile(
                    "(?i)^(?:we|I) (?:just |finally |recently |have )?(?:broke up|split up|broken up|called it quits)(?: with (?<name>(?-i:[A-Z])[\\p{L}'-]+))?(?<when> .+)?$");

    /** "Heat has been replaced by Oppenheimer as my favorite movie": the new one after "by". */
    static final Pattern REPLACED_BY =
            Pattern.compile(
                    "(?i)^.{1,40}? (?:has been|have been|was|were|got|is being) (?:replaced|overtaken|dethroned|beaten|surpassed|displaced) by (?<val>[^,]{1,40}?) as my (?<attr>favou?rite [\\p{L}-]+(?: [\\p{L}-]+)?|[\\p{L}-]+(?: [\\p{L}-]+)?)$");

    /** "Ramen has replaced pizza as my favorite food". */
    static final Pattern REPLACED_AS =
            Pattern.compile(
                    "(?i)^(?<val>(?!.* (?:has|have) been$)(?!.* (?:was|were|got|is|are)$)[^,]{1,40}?) (?:(?:has|have|just|officially|finally|totally|completely|now) )*(?:replaced|overtaken|overtook|taken over from|took over from|dethroned|beaten|beat|surpassed|displaced|taken|took) .{1,40}?(?:['’]s? place)? as my (?<attr>favou?rite [\\p{L}-]+(?: [\\p{L}-]+)?|[\\p{L}-]+(?: [\\p{L}-]+)?)$");

    /** "I am more into basketball, it is my favorite sport": the favorite, named before "it". */
    static final Pattern INTO_FAVORITE =
            Pattern.compile(
                    "(?i)^I (?:am (?:now |more |really |totally |so )*(?:into|obsessed with|hooked on|loving|crazy about|all about|all in on)|(?:now |mostly |mainly |only |really )*(?:read|watch|listen to|play|drink|eat|wear|use)) (?<val>[^,]{1,40}?)(?: now| these days| nowadays)?, (?:it is|that is|they are|he is|she is|he['’]s|she['’]s|they['’]re|it['’]s|that['’]s) (?:now )?my (?:new )?(?<attr>favou?rite [\\p{L}-]+(?: [\\p{L}-]+)?)$");

    /** "We are now budgeting $25,000 for the wedding". */
    static final Pattern BUDGETING =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:am|are) (?:now |currently )?budgeting (?<val>[$€£] ?\\d[\\d,.]*k?) for (?<what>(?:the|my|our|this) [\\p{L} -]{2,40})$");

    /**
     * "I switched from Intel to AMD", "I traded the BMW for an Audi": a new value, named with the
     * old one it replaces; what it is the value of is whatever the old value was stored as.
     */
    static final Pattern FROM_TO =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |have |have just )?(?:switched|changed|upgraded|downgraded|converted|transferred) (?:over )?(?:from|out of) (?<old>[^,]{1,40}?) to (?<new>[^,]{1,40}?)$");

    static final Pattern TRADED =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |have |have just )?(?:traded(?: in)?|swapped|exchanged|ditched|dumped|dropped) (?:my |our |the )?(?<old>[^,]{1,40}?) for (?<new>[^,]{1,40}?)$");

    static final Pattern REPLACED_WITH =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |have |have just )?replaced (?:my |our |the )?(?<old>[^,]{1,40}?) with (?<new>[^,]{1,40}?)$");

    /** "I go to Orangetheory now instead of Equinox". */
    static final Pattern INSTEAD_OF =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:now |currently |mostly |usually |have been |am )?(?:go to|going to|use|using|shop at|shopping at|bank with|see|seeing|drink|eat|drive|driving|play|playing|watch|listen to|work at|work for|working at) (?<new>[^,]{1,40}?) (?:now )?instead of (?<old>[^,]{1,40}?)$");

    /**
     * "I bank with Chase", "I use Spotify", "I support Arsenal": a provider, a service or a team
     * someone has, by its name. One of a kind is not known, so no key; a switch replaces it.
     */
    static final Pattern USES =
            Pattern.compile(
                    "(?i)^I (?:now |currently |still |mostly |mainly |usually |also |only )?(?<verb>use|bank with|shop at|support|root for|cheer for|work out at|go to the gym at|go to|train at|insure (?:my car |my house |my home )?with|stream on|listen on)(?<val> (?:the |an? (?=(?-i:[a-z]?[A-Z])))?(?-i:[a-z]?[A-Z0-9])[\\p{L}0-9&.+'-]*(?: (?-i:[A-Z0-9&])[\\p{L}0-9&.+'-]*){0,3})(?: (?:now|these days|nowadays|for (?:everything|my [\\p{L} ]{1,20})|(?:on|in|at|near|by|off) (?:(?-i:[A-Z])|\\d{1,3}(?:st|nd|rd|th) |the )[\\p{L}0-9 .'-]{1,30}|downtown))?$");

    /**
     * "I am a Yankees fan", "I'm a die-hard Celtics supporter", "im a celtic fan since birth": a
     * team or a name one follows, capitalised or in chat's lower case (then not an adjective).
     */
    static final Pattern NAMED_FAN =
            Pattern.compile(
                    "(?i)^I am (?:now |still |also )?(?:a |an )?(?:(?:big|huge|massive|die-hard|die hard|diehard|lifelong|loyal|proper|massive|total) )*(?<obj>(?-i:[A-Z0-9])[\\p{L}0-9&.'-]*(?: (?-i:[A-Z0-9])[\\p{L}0-9&.'-]*){0,2}|(?!(?:a|an|big|huge|massive|total|real|true|proper|hardcore|longtime|long-time|mega|crazy|absolute|major|serious|casual|secret|closet|bandwagon|fair-weather|loyal|die|hard|such|sports?|fan|the|my|your|their|his|her|this|that)\\b)(?-i:[a-z][a-z&.'-]*)(?: (?-i:[a-z][a-z&.'-]*)){0,2}) (?<how>fan|supporter)(?: (?:since .{1,30}|for life|4 life|through and through|forever|till i die|til i die|to the core|lol|tbh|btw|ngl|fr))?(?:, .*)?$");

    /** "I am a mom of three now": how many children. */
    static final Pattern PARENT_OF =
            Pattern.compile(
                    "(?i)^I am (?:now )?(?:a |the )?(?:proud )?(?:mom|mum|mother|dad|father|parent) of (?<n>two|three|four|five|six|seven|eight|nine|ten)(?: kids| children)?$");

    /** "I am in a relationship now": no longer single, no name said. */
    static final Pattern IN_RELATIONSHIP =
            Pattern.compile(
                    "(?i)^I am (?:now |currently )?in a (?:serious |committed )?relationship$");

    /** "I am not vegan anymore": a diet or status that ended. */
    static final Pattern NO_LONGER =
            Pattern.compile(
                    "(?i)^I am (?:not|no longer) (?:a |an )?(?<state>vegetarian|vegan|pescatarian|single|married|engaged)(?: anymore| any more)?$");

    static final Pattern I_AM_ROLE =
            Pattern.compile(
                    "(?i)^I am (?:now |currently |also |still |actually |officially |finally )?(?<role>(?:an? )?(?:[\\p{L}-]+ ){0,3}?[\\p{L}-]+)(?<where> (?:at|for|with|in|on) .+)?$");
    static final Pattern LIKING =
            Pattern.compile(
                    "(?i)^I "
                            + ADVERBS
                            + "(?<verb>love|like|enjoy|adore|hate|dislike|prefer|cannot stand|collect|play|practice|practise|speak|volunteer|teach|study|own|run)(?<to> to)? (?<obj>.+)$");
    static final Pattern NOT_LIKING =
            Pattern.compile(
                    "(?i)^I (?:really |just |actually )?(?:do not|never|no longer) (?:really )?(?<verb>like|enjoy|eat|drink|love|smoke|watch|play) (?<obj>.+)$");
    static final Pattern FAN =
            Pattern.compile(
                    "(?i)^I am "
                            + ADVERBS
                            + "(?<how>into|obsessed with|passionate about|a (?:big |huge |massive )?fan of|learning|allergic to|afraid of|scared of|terrified of|petrified of|frightened of|keen on|all about|addicted to|hooked on) (?<obj>.+)$");
    static final Pattern DIET =
            Pattern.compile(
                    "(?i)^I (?:am|have been|went|have gone|have now gone) (?:now |fully |completely |totally |strictly )?(?:a |an |such an? |a total |a real |a massive |a huge )?(?<diet>vegetarian|veggie|vegan|pescatarian|coeliac|asthmatic|epileptic|colou?r ?blind|night owl|morning person|early bird|(?:aries|taurus|gemini|leo|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces)(?= through and through| tbh| lol| btw|$)|on (?:a |the )?(?:strict )?(?:keto|ketogenic|paleo|low[- ]carb|low[- ]fat|mediterranean|gluten[- ]free|dairy[- ]free|plant[- ]based|carnivore|whole30|raw food) diet|lactose intolerant|gluten intolerant|celiac|diabetic|teetotal|sober|left[- ]handed|right[- ]handed|colorblind|colourblind|color blind|deaf|dyslexic|autistic|an only child|a twin),?(?<rest> .+)?$");
    static final Pattern HAVE =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:now |currently |still |also )?(?<verb>have got|have|own|got|adopted) (?<rest>.+)$");
    static final Pattern NAMED =
            Pattern.compile(
                    "^(?:(?<kw>named|called) )?(?<name>\\p{L}[\\p{L}'-]+(?:(?:,| and|, and) \\p{L}[\\p{L}'-]+)*)(?<after> .*)?$");
    static final Pattern MARRIED_TO =
            Pattern.compile(
                    "(?i)^I am (?:happily )?(?<state>married|engaged) to (?<name>[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?)$");

    /**
     * "I am 34", "I turned 35 yesterday": an age. Only a birthday that is past takes a time after
     * it; "I am turning 30 on August 14" is a date to come, read elsewhere.
     */
    static final Pattern AGE =
            Pattern.compile(
                    "(?i)^I (?:am (?:now |turning |about to turn )?(?<n>\\d{1,3})(?: years old| yrs old| now| today)?|(?:just |recently |finally )?(?:turned|hit|reached) (?<past>\\d{1,3})(?: years old)?(?: (?:yesterday|today|this (?:week|month|year)|last (?:week|month|year|[a-z]+day)|on .{1,30}))?)(?:,(?! (?:and|but) ).*)?$");

    static final Pattern STATE =
            Pattern.compile(
                    "(?i)^(?:I am (?:now |currently |\\d+ (?:weeks|months) )?(?<state>married|engaged|divorced|separated|single|pregnant|retired|widowed|a grandparent|expecting)(?: .*)?|we are (?:now |officially )?(?<we>engaged|married))$");
    static final Pattern RELATIVE =
            Pattern.compile(
                    "(?i)^my (?<rel>[\\p{L}-]+(?: [\\p{L}-]+)?) (?<name>[A-Z][\\p{L}'-]+) (?<pred>(?:lives in|works at|works as|works for|is an?|loves|studies|plays|moved to|is moving to|is getting married|got married|is starting|started|graduated|is coming|is visiting|is joining) .+)$");
    static final Pattern PLAN =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:am|are) (?:going|planning|hoping|about|aiming|getting ready|preparing|excited|looking forward|thinking) (?:to|on|of|about) (?<vp>.+)$");
    static final Pattern INTEND =
            Pattern.compile(
                    "(?i)^I (?:plan|intend|want|hope|would like|would love|have decided|decided|aim|am determined) to (?<vp>.+)$");
    static final Pattern WILL = Pattern.compile("(?i)^(?:I|we) (?:will|shall) (?<vp>.+)$");
    static final Pattern ACTIVITY =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:am|are|have been|have also been|have recently been) "
                            + ADVERBS
                            + "(?<ving>[a-z]+ing)(?<rest> .+)$");
    static final Pattern DONE =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:have|have already|have just|have recently|have finally) (?<verb>been to|visited|done|tried|started|finished|completed|learned|learnt|read|written|built|adopted|bought|joined|won|run|climbed|published)(?<rest> .+)$");
    static final Pattern LUCKY_TO_HAVE =
            Pattern.compile(
                    "(?i)^I am (?:so |really |very )?(?:lucky|blessed|grateful|thankful) to have (?:my|a|an) (?<rel>[\\p{L}-]+)(?: and (?:my |a |an )?(?<rel2>[\\p{L}-]+))?$");
    static final Pattern PROCEDURE =
            Pattern.compile(
                    "(?i)^to (?<goal>[a-z]+ (?:my|our) [\\p{L} '-]{2,40}), (?<steps>(?:first|start by|always|just) .{10,200})$");
    static final Pattern PROGRESSIVE =
            Pattern.compile("(?i)^(?:I|we) (?:am|are) (?<ving>[a-z]+ing) (?<rest>.+)$");
    static final Pattern EVENT =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |also |actually |even |both |already |once )*(?<verb>[a-z]+)(?<rest>(?: .+)?)$");
}
