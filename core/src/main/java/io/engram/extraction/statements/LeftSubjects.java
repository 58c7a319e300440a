package io.engram.extraction.statements;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subject chat leaves out of a statement, put back: "Been living in Austin" is "I have been
 * living in Austin", "lactose intolerant, learned that the hard way" is "I am lactose intolerant",
 * "play piano, mostly classical" is "I play piano". Most shapes are taken only at the start of a
 * sentence, and only with what makes them a statement rather than a request ("play this", "wear a
 * coat") or a remark ("vegan food is the best"). {@link Clauses} restores the subject of a verb of
 * change itself, since that one may be carried over from the clause before.
 */
final class LeftSubjects {

    private LeftSubjects() {}

    /** "Been living in …", "Been working at …": a perfect tense, its subject left out. */
    private static final Pattern BEEN =
            Pattern.compile(
                    "(?i)^been (?:(?:living|based) (?:in|near) |in (?-i:[A-Z])|working (?:at|for|as) |(?:playing|learning|doing|running|climbing|teaching|studying|volunteering|coaching|training|practi[sc]ing|swimming|cycling|knitting|painting|dancing|boxing|bouldering) (?!(?:it|that|this|so|too|a lot|a bit|loads|nothing|all|for ages|longer|more|less|again|lately|recently)\\b)|(?:fully |strictly |completely )?(?:vegan|vegetarian|pescatarian|sober)\\b)");

    /**
     * "working as a realtor now", "learning Japanese now", "dating a guy named Tom": a chat clause
     * in the progressive, its "I am" left out.
     */
    private static final Pattern PROGRESSIVE_ALONE =
            Pattern.compile(
                    "(?i)^(?:now |currently |just )?(?:working (?:as|at|for) |living in |studying at |dating |learning |driving an? |seeing (?:a|someone) )(?!.*\\b(?:is|was|has|have|had|makes|made|helps|helped|feels|felt|can|will|takes|took|gets|got)\\b)");

    /**
     * "lactose intolerant, learned the hard way", "veggie since i was 12", "celtic fan since
     * birth", "born and bred in swansea": what the speaker is, its "I am" left out, at the start of
     * a sentence and ended where a statement ends (not "vegan food is …").
     */
    private static final Pattern STATE_ALONE =
            Pattern.compile(
                    "(?i)^(?:(?:lactose|gluten) intolerant|coeliac|celiac|vegan|vegetarian|veggie|pescatarian|dyslexic|asthmatic|diabetic|epileptic|colou?r ?blind|left[- ]handed|teetotal|(?:(?:big|huge|massive|die[- ]?hard|lifelong) )?(?:[\\p{L}&.'-]+ ){0,2}[\\p{L}&.'-]+ (?:fan|supporter)(?= (?:since|for life|4 life|through and through|forever|till? i die)\\b))(?=\\s*$|\\s*[,+&]|\\s+(?:since|for|so|bc|cos|coz|because|and|btw|lol|now|tbh|ngl|too|here|4 life|through|forever|till?)\\b)");

    /**
     * "play piano, mostly classical", "wear contacts every day", "bike to work", "have 2 kids": a
     * habit or a possession of the speaker's, its "I" left out, at the start of a sentence; only
     * with what these verbs take as a statement, not as a request ("play this", "wear a coat").
     */
    private static final Pattern HABIT_ALONE =
            Pattern.compile(
                    "(?i)^(?:play (?:the )?(?:piano|guitar|violin|viola|cello|drums|bass|ukulele|uke|flute|sax|saxophone|trumpet|trombone|clarinet|harp|oboe|keyboard|tennis|football|soccer|netball|rugby|cricket|golf|chess|hockey|basketball|volleyball|squash|badminton|padel|pickleball|baseball|softball|bridge|darts|snooker|lacrosse)\\b|speak (?!(?:to|with|up|soon|later|for|about|of)\\b)\\p{L}|wear (?:glasses|specs|contacts|contact lenses|a hearing aid|hearing aids|braces|a retainer)\\b|(?:bike|cycle|walk|drive|commute|run) to (?:work|uni|school|college|the office)\\b|work (?:at|for|as) |live (?:in|on|with) |bank with (?=\\p{L})|teach |volunteer (?:at|with|for) |have (?:\\d+|two|three|four|five|six|a|an) (?:[\\p{L}-]+ )?(?:kids?|children|sons?|daughters?|boys|girls|dogs?|cats?|brothers?|sisters?|siblings|grandkids|grandchildren)\\b|(?:love|adore|enjoy|hate) (?!(?:seeing|hearing|reading|talking|chatting|knowing|watching|being|having|doing|getting)\\b)\\p{L}+ing\\b)");

    /** "got diagnosed with adhd last year": a condition the speaker has, said as news. */
    private static final Pattern DIAGNOSED =
            Pattern.compile(
                    "(?i)^(?:I )?(?:just |recently |finally |officially )?(?:got|was|have been|['’]?ve been|been|am) (?:officially |finally |just |recently )?diagnosed with ");

    /** "literally terrified of spiders": what the speaker fears, its "I am" left out. */
    private static final Pattern FEAR_ALONE =
            Pattern.compile(
                    "(?i)^(?:literally |so |genuinely |really |absolutely )?(?:terrified|scared|afraid|petrified) of \\p{L}");

    /**
     * "being a dental hygienist means i see 20 mouths a day": what the speaker is, told by what it
     * means for them ("being a mom is awesome" is a remark, not a statement).
     */
    private static final Pattern BEING =
            Pattern.compile(
                    "(?i)^being (?<what>(?:an? )?[\\p{L}-]+(?: [\\p{L}-]+){0,3}?) means (?:i|my|me)\\b");

    /**
     * "went blonde!!", "gone back to my natural dark brown": a hair colour, told as where one went.
     * Only colours that are hair's alone ("red" may be a blush).
     */
    private static final Pattern WENT_COLOUR =
            Pattern.compile(
                    "(?i)^(?:I )?(?:just |finally |officially )?(?:went|have gone|['’]?ve gone|gone) (?:back to (?:my )?natural (?<n>(?:dark |light )?[a-z]+)|(?<c>(?:strawberry |bleach |platinum |dirty |ash )?blonde?|brunette|ginger|auburn|platinum|copper))\\b");

    /** "gone fully vegan now": a diet one went to, its "I have" left out. */
    private static final Pattern GONE_DIET =
            Pattern.compile(
                    "(?i)^gone (?:fully |completely |strictly |totally )?(?:vegan|vegetarian|veggie|pescatarian)\\b");

    /** "born and bred in swansea": where the speaker was born, its "I was" left out. */
    private static final Pattern BORN_ALONE =
            Pattern.compile("(?i)^born and (?:bred|raised) (?:in|near) ");

    /**
     * {@code clause} with its subject put back when chat left it out; {@code first} when it starts
     * its sentence.
     */
    static String restored(String clause, boolean first) {
        Matcher colour = WENT_COLOUR.matcher(clause);
        if ((first || clause.startsWith("I ")) && colour.lookingAt()) {
            String c = colour.group("n") != null ? colour.group("n") : colour.group("c");
            return "my hair is " + c.toLowerCase(java.util.Locale.ROOT);
        }
        if (first && GONE_DIET.matcher(clause).lookingAt()) {
            return "I have " + clause;
        }
        if (PROGRESSIVE_ALONE.matcher(clause).lookingAt()) {
            return "I am " + clause;
        }
        if (first
                && (STATE_ALONE.matcher(clause).lookingAt()
                        || FEAR_ALONE.matcher(clause).lookingAt())) {
            return "I am " + clause;
        }
        if (first && HABIT_ALONE.matcher(clause).lookingAt()) {
            return "I " + clause;
        }
        if (first || clause.startsWith("I ")) {
            // "got diagnosed with adhd last year": "I have adhd".
            Matcher d = DIAGNOSED.matcher(clause);
            if (d.lookingAt()) {
                return "I have " + clause.substring(d.end());
            }
        }
        Matcher being = BEING.matcher(clause);
        if (first && being.lookingAt()) {
            return "I am " + being.group("what");
        }
        if (first && BORN_ALONE.matcher(clause).lookingAt()) {
            return "I was " + clause;
        }
        if (BEEN.matcher(clause).lookingAt()) {
            // "Been living in Austin for a month": "I have been …".
            return "I have " + clause;
        }
        return clause;
    }
}
