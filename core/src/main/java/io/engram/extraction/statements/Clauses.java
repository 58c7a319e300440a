package io.engram.extraction.statements;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a chat sentence into the clauses the statement patterns read: contractions written out
 * ("I'm" → "I am"), interjections and discourse markers at the start dropped ("Oh wow, yeah, I…"),
 * emoji and decoration removed, and independent clauses joined by "and"/"but"/";" split apart when
 * each has its own first-person subject.
 */
public final class Clauses {

    private static final String[][] CONTRACTIONS = {
        {"\\bI['’]m\\b", "I am"},
        {"\\bI['’]ve\\b", "I have"},
        {"\\bI['’]ll\\b", "I will"},
        {"\\bI['’]d\\b", "I would"},
        {"\\bwe['’]re\\b", "we are"},
        {"\\bwe['’]ve\\b", "we have"},
        {"\\bwe['’]ll\\b", "we will"},
        {"\\bwe['’]d\\b", "we would"},
        {"\\bdon['’]t\\b", "do not"},
        {"\\bdoesn['’]t\\b", "does not"},
        {"\\bdidn['’]t\\b", "did not"},
        {"\\bcan['’]t\\b", "cannot"},
        {"\\bwon['’]t\\b", "will not"},
        {"\\bisn['’]t\\b", "is not"},
        {"\\baren['’]t\\b", "are not"},
        {"\\bwasn['’]t\\b", "was not"},
        {"\\bhaven['’]t\\b", "have not"},
        {"\\bhasn['’]t\\b", "has not"},
        {"\\bwouldn['’]t\\b", "would not"},
        {"\\bit['’]s\\b", "it is"},
        {"\\bthat['’]s\\b", "that is"},
        {"\\bgonna\\b", "going to"},
        {"\\bwanna\\b", "want to"},
        {"\\bgotta\\b", "have to"},
        {"\\bim\\b", "I am"},
        {"\\bive\\b", "I have"},
    };

    /** Every contraction above in one pattern, and what each is written out as. */
    private static final Pattern CONTRACTION;

    private static final java.util.Map<String, String> WRITTEN_OUT = new java.util.HashMap<>();

    /** A word that may start a contraction: a clause without one skips them all. */
    private static final Pattern MAY_CONTRACT =
            Pattern.compile("(?i)['’]|\\b(gonna|wanna|gotta|im|ive)\\b");

    static {
        StringBuilder any = new StringBuilder("(?i)\\b(?:");
        for (int i = 0; i < CONTRACTIONS.length; i++) {
            String word = CONTRACTIONS[i][0].replace("\\b", "");
            any.append(i == 0 ? "" : "|").append(word);
            WRITTEN_OUT.put(key(word.replace("['’]", "'")), CONTRACTIONS[i][1]);
        }
        CONTRACTION = Pattern.compile(any.append(")\\b").toString());
    }

    private static String key(String contraction) {
        return contraction.toLowerCase(Locale.ROOT).replace('’', '\'');
    }

    /** First words an opener can start with (a clause starting otherwise has none). */
    private static final java.util.Set<String> OPENER_STARTS =
            java.util.Set.of(
                    ("oh ooh ah wow whoa yeah yes yep yup no nope well so ok okay hey hi"
                                    + " hello haha hahaha hah lol omg actually honestly btw by also and but"
                                    + " anyway anyways plus fun guess you just fyi speaking i right true"
                                    + " totally absolutely exactly definitely of sure thanks thank cool nice"
                                    + " great awesome amazing sweet ha since it long good big update aw aww"
                                    + " awww hmm hmmm um umm uh oops quick news heads change these nowadays"
                                    + " lately currently now at as starting ngl tbh lowkey")
                            .split(" "));

    /** Words at a clause's start that only color it. */
    private static final Pattern OPENER =
            Pattern.compile(
                    "(?i)^(?:oh|ooh|ah|aw+|wow|whoa|yeah|yes|yep|yup|no|nope|well|so|ok|okay|hey|hi|hello"
                            + "|haha+|hah|lol|omg|actually|honestly|ngl|tbh|lowkey|btw|by the way|also|and|but|anyway"
                            + "|anyways|plus|fun fact|guess what|you know what|just so you know|fyi"
                            + "|speaking of which|ah yes|oh yes|i mean|i would say(?: that)?|right|true|totally|absolutely"
                            + "|exactly|definitely|of course|sure|thanks|thank you|cool|nice|great"
                            + "|awesome|amazing|sweet|ha|i am (?:so |really )?(?:excited|happy|glad|thrilled|proud) to (?:tell|share with|let) you(?: know)?(?: that)?"
                            + "|i (?:wanted|want|have|had) to (?:tell|share with|let) you(?: know)?(?: that)?|you will not believe (?:it|this)"
                            + "|since (?:we|i) last (?:chatted|talked|spoke)|it has been (?:a while|ages)|long time no see"
                            + "|good news|big news|quick update|update|so much since we talked|ha|hmm+|um+|uh+|oops|fyi|news|heads up|change of plans"
                            + "|these days|nowadays|lately|currently|now|at the moment|right now|as of (?:now|today|this week|this month)|starting (?:today|now|this week|this month|on monday))(?-i:\\s+[A-Z][a-z]+(?=\\s*[,!.:;-]|\\s+I\\b))?\\s*(?:[,!.:;-]+\\s*|\\s+)");

    private static final Pattern SPACES = Pattern.compile("\\s+");

    /**
     * Chat's asides inside a clause, typed in lower case: "my fave band rn is Wet Leg". ("RN", a
     * nurse, is written in capitals.)
     */
    private static final Pattern ASIDE_WORD =
            Pattern.compile("(?<=\\p{L}) (?:rn|tbh|ngl|atm|lowkey|imo)(?= \\p{L})");

    /** A name alone after an opener: who is spoken to ("Thanks, Maria!"). */
    private static final Pattern VOCATIVE = Pattern.compile("[A-Z][\\p{L}'-]+[\\s!.,]*");

    private static final Pattern DECORATION =
            Pattern.compile("[\\p{So}\\p{Cn}\\x{1F000}-\\x{1FAFF}\\x{2600}-\\x{27BF}\\x{FE0F}]+");

    /**
     * Verbs a clause goes on with after "and" without saying its subject again, when they give a
     * new value: "I left Microsoft and joined Netflix", "we packed up and moved to Phoenix".
     */
    private static final String CARRIED =
            "(?:now |just |then |recently |finally )?(?:moved|relocated|finished moving|joined|(?:started|began) (?=a |an |my |the |at |working|as )|became|switched|took|accepted|landed|settled|work (?=at |for |as )|live (?=in |near )|drive (?=an? )|turned (?=\\d)|(?:make|earn)(?= [$€£\\d])|got (?:hired|a (?:new )?job|engaged|married|promoted))\\b";

    /** A decoration's mark between two words. */
    private static final Pattern BETWEEN_WORDS =
            Pattern.compile("(?<=\\p{L})\\s+(?:\u0001\\s+)+(?=\\p{L})");

    /** A clause that starts with one of those verbs, its subject left out. */
    private static final Pattern NO_SUBJECT = Pattern.compile("(?i)^" + CARRIED);

    /**
     * A sentence that opens on a verb of change, its subject left out as chat leaves it: "Traded in
     * the Civic for a Tesla", "Cancelled Spotify, I'm on Apple Music". Only at the start of a
     * sentence, capitalised: inside one, "and sold the house" may be someone else's.
     */
    private static final Pattern OPENS_ON_CHANGE =
            Pattern.compile(
                    "^(?:(?:Just|Finally|Recently|Also|Then|Now|Officially) (?i:just |finally |recently |officially )?)?(?i:traded|upgraded|downgraded|swapped|switched|cancell?ed|closed|transferred|gave up|ditched|dropped|quit|left|sold|bought|got rid of|stopped|finalized|finalised|signed|picked up|took up|got promoted|got hired|graduated|retired|replaced|converted|celebrated|found|went(?= (?:fully |completely |strictly |totally )?(?:vegan|vegetarian|pescatarian|sober|keto)\\b))\\b");

    /** The first-person subject a clause starts with: "I", "we", "Sam and I". */
    private static final Pattern FIRST_PERSON =
            Pattern.compile(
                    "^(?:(?<we>(?i:we))|(?:[A-Z][\\p{L}'-]+ and |(?i:my) [\\p{L}-]+ and )?I) ");

    /** Someone else as a clause's subject: "my dad", "our neighbour", "he". */
    private static final Pattern OTHER_PERSON =
            Pattern.compile("(?i)^(?:(?:my|our) (?<who>[\\p{L}-]+)|(?<pronoun>he|she|they))(?= )");

    private static boolean othersOwn(String who) {
        if (who == null) {
            return true;
        }
        String w = who.toLowerCase(java.util.Locale.ROOT);
        return Lexicons.someone(w);
    }

    /** A name and its copula: "Radiohead is", "Mike is". */
    private static final String NAMED_SUBJECT =
            "(?-i:[A-Z][\\p{L}'-]+)(?: (?-i:[A-Z][\\p{L}'-]+))? (?:is|are) ";

    private static final Pattern SPLIT =
            Pattern.compile(
                    "(?i)\\s*(?:;(?!\\s*it is )"
                            // "I'm a part-time barista while I finish my course".
                            + "|,?\\s+while\\s+(?=I\\b|we\\b)"
                            // "… and I …", "… and joined Netflix", "…, so Mike is my team lead".
                            + "|,?\\s+(?:(?:and|but|so)\\s+(?=(?:(?:now|then) )?(?:I|my|we)\\b|"
                            + CARRIED
                            + "|"
                            + NAMED_SUBJECT
                            + "(?:now )?my )|then\\s+(?="
                            + CARRIED
                            + "))"
                            // "…, I …", and "…, Radiohead is my favorite band now": a named
                            // subject and its copula start a clause of their own.
                            // "Pizza's been dethroned, sushi is my favorite food now".
                            + "|,\\s+(?=(?!(?:it|that|this|he|she|they|which|what|who)\\s)[\\p{L}.'-]+(?: [\\p{L}.'-]+)? (?:is|are) my )"
                            // "Vancouver's home now, left Toronto in August", "left nursing,
                            // working as a realtor now": a clause of the speaker's, its subject
                            // left out.
                            + "|,\\s+(?=(?:left|sold|traded|quit|dropped|ditched|cancell?ed|switched|moved|got rid of|got promoted|got hired)\\s|(?:now |currently )?(?:working (?:as|at|for)|living in|dating|learning|driving an?)\\s)"
                            // "Switched careers - I am a paramedic now".
                            + "|\\s+[-–—]+\\s+(?=(?:I|my|we)\\s)"
                            + "|,\\s+(?=(?:I|my|we)\\s|"
                            + NAMED_SUBJECT
                            + "))\\s*");

    /**
     * "my manager is Gavin and he micromanages everything": "and" before another subject ends the
     * speaker's statement.
     */
    private static final Pattern AND_THEN_SUBJECT =
            Pattern.compile(
                    "(?i)\\s+and\\s+(?:honestly\\s+|tbh\\s+|ngl\\s+)?(?=(?:he|she|they)\\b|it(?:['’]s| is| was)\\b)");

    /** A clause that starts with the speaker. */
    private static final Pattern SPEAKER_FIRST = Pattern.compile("(?i)(?:i|we|my|our)\\b");

    /**
     * Where a comment on the speaker's statement begins: ", so meetings all day", ", they are
     * chaos", ", have been since college", or a "so" that starts a clause (a verb follows within a
     * few words) - not "so much", "so tired", nor ", it is my favorite sport", which completes the
     * statement.
     */
    private static final Pattern COMMENT =
            Pattern.compile(
                    "(?i),\\s+(?:(?:honestly|tbh|ngl|lol|but|and|though) )?(?!(?:so )?(?:[\\p{L}'’-]+ ){0,2}\\p{L}+(?: is| are|['’]s|['’]re) (?:my|our|home)\\b)(?=so\\s|(?:have |i['’]?ve |ever )?(?:been|since|done since)\\s|(?:the |my |our )?(?!i\\b|we\\b|you\\b)\\p{L}+ (?:are|is) (?:killing|driving|so|too|really|a nightmare|no joke|brutal|insane)\\b|(?:it|that|this|he|she|they|there|these|those)(?:['’](?:s|re|ll|ve|d)\\b| (?:is|are|was|were|has|have|had|will|can|does|do|did|makes|made|refuses|loves|hates|looks|seems|explains|gets|got|keeps|never|always|just|still)\\b))"
                            + "|\\s+so\\s+(?=(?!(?:much|many|far|long|well|that)\\b|(?:\\S+\\s+){1,2}(?:is|are) (?:my|our|home)\\b)(?:\\S+\\s+){0,3}(?:am|is|are|was|were|r|has|have|had|might|will|can|could|do|does|did|need|needs|get|gets|fits|works|ever)\\b)");

    private Clauses() {}

    /**
     * A time phrase before the subject: "Last Friday I went…", "Just yesterday, we…", "Next month
     * I'm having…".
     */
    private static final Pattern LEADING_TIME =
            Pattern.compile(
                    "(?i)^(?:just |only )?(?<t>(?:last|this past|this|on|earlier this|yesterday|today|tonight|recently|a few|two|three|a couple of|next|tomorrow|over the weekend|the other day)\\b(?:(?! (?:was|were|is|has|had|went|got)\\b| [-–—] )[^,]){0,28}?),? (?<rest>(?:I|we|my)\\b.+)$");

    private static final Pattern ASIDE = Pattern.compile("\\s[-–—]\\s");

    /** "…is my favorite color now": the time of the statement, not part of it. */
    private static final Pattern TRAILING_NOW =
            Pattern.compile(
                    "(?i)[,\\s]+(?:right now|now|these days|nowadays|anymore|currently|as of now|from now on)$");

    /**
     * Chat's sign-offs at a clause's end: "im a paramedic now lol", "went vegan tbh x". ("RN", a
     * nurse, is not among them.)
     */
    private static final Pattern TRAILING_FILLER =
            Pattern.compile(
                    "(?i)[,\\s]+(?:lol+|lmao+|haha+|hah|hehe+|tbh|ngl|fr|btw|tho|omg|yay+|woo+|jk|imo|(?-i:x+|xo+))$");

    /** The clause without its trailing sign-offs and time words, in any order. */
    static String withoutTrailing(String clause) {
        String before;
        do {
            before = clause;
            clause = TRAILING_FILLER.matcher(clause).replaceAll("").strip();
            clause = TRAILING_NOW.matcher(clause).replaceAll("").strip();
        } while (!clause.equals(before));
        return clause;
    }

    /** The clauses of one sentence, cleaned, in order. */
    public static List<String> of(String sentence) {
        // An emoji between two words ends a clause, as a comma would: "not single anymore 😊
        // dating a guy named Tom".
        String s =
                ascii(sentence)
                        ? sentence
                        : BETWEEN_WORDS
                                .matcher(DECORATION.matcher(sentence).replaceAll(" \u0001 "))
                                .replaceAll(", ")
                                .replace("\u0001", " ");
        if (MAY_CONTRACT.matcher(s).find()) {
            s = CONTRACTION.matcher(s).replaceAll(c -> WRITTEN_OUT.get(key(c.group())));
        }
        // Most sentences have no aside word at all.
        if (io.engram.text.Text.containsAny(s, ASIDE_WORDS)) {
            s = ASIDE_WORD.matcher(s).replaceAll("");
        }
        s = Rewrites.apply(s);
        s = SPACES.matcher(s).replaceAll(" ").strip();
        List<String> out = new ArrayList<>();
        List<String> parts = new ArrayList<>(List.of(SPLIT.split(s)));
        // "Sara and I got engaged": a name or "my wife" alone before "and I" is a companion, not a
        // clause.
        for (int i = 0; i + 1 < parts.size(); i++) {
            if (parts.get(i).matches("^(?:[A-Z][\\p{L}'-]+|(?i:my) [\\p{L}-]+(?: [\\p{L}-]+)?)$")
                    && parts.get(i + 1).startsWith("I ")
                    // "Unfortunately, I lost…" is an adverb and a clause, not "X and I".
                    && s.contains(parts.get(i) + " and " + parts.get(i + 1))) {
                parts.set(i, parts.get(i) + " and " + parts.remove(i + 1));
            }
        }
        // "I have two rabbits, they are chaos", "I drive a Tesla so charging is a whole thing": the
        // speaker's statement ends where a comment on it begins.
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if ((part.contains(", ") || part.contains(" so ") || part.contains(" and "))
                    && SPEAKER_FIRST.matcher(part).lookingAt()) {
                Matcher comment = COMMENT.matcher(part);
                if (!comment.find()) {
                    comment = AND_THEN_SUBJECT.matcher(part);
                }
                if (comment.find(0)) {
                    parts.set(i, part.substring(0, comment.start()));
                    parts.add(i + 1, part.substring(comment.end()));
                }
            }
        }
        String subject = null;
        for (int i = 0; i < parts.size(); i++) {
            String clause = stripOpeners(parts.get(i)).strip();
            // "…and joined Netflix" says its subject in the clause before; "Just moved to
            // Phoenix!" in chat is the speaker's own news.
            if (NO_SUBJECT.matcher(clause).lookingAt()
                    || (i == 0 || "I".equals(subject) || afterComma(parts, i, s))
                            && OPENS_ON_CHANGE.matcher(clause).lookingAt()) {
                clause = (subject == null ? "I" : subject) + " " + clause;
            } else {
                clause = LeftSubjects.restored(clause, i == 0);
            }
            var person = FIRST_PERSON.matcher(clause);
            var other = OTHER_PERSON.matcher(clause);
            // "my dad closed his accounts and moved everything to Ally": the dad moved it.
            subject =
                    person.lookingAt()
                            ? (person.group("we") != null ? "we" : "I")
                            : other.lookingAt() && othersOwn(other.group("who"))
                                    ? other.group()
                                    : null;
            var leading = LEADING_TIME.matcher(clause);
            if (leading.matches()) {
                // Before an aside ("… my paintings - can't wait"), which is cut off later.
                String rest = leading.group("rest").replaceAll("[\\s.!…]+$", "");
                var aside = ASIDE.matcher(rest);
                int at = aside.find() ? aside.start() : rest.length();
                clause = rest.substring(0, at) + " " + leading.group("t") + rest.substring(at);
            }
            clause = clause.replaceAll("[\\s.!…]+$", "").strip();
            clause = withoutTrailing(clause);
            if (!clause.isEmpty()) {
                out.add(clause);
            }
        }
        return out;
    }

    /**
     * Whether clause {@code i} followed a comma in the sentence: "Vancouver's home now, left
     * Toronto" goes on with the speaker.
     */
    private static boolean afterComma(List<String> parts, int i, String sentence) {
        if (i == 0) {
            return false;
        }
        int at = sentence.indexOf(parts.get(i));
        return at > 1 && sentence.substring(0, at).stripTrailing().endsWith(",");
    }

    /** The clause without the interjections it starts with. */
    static String stripOpeners(String clause) {
        String c = clause.strip();
        for (int i = 0; i < 6; i++) {
            int space = 0;
            while (space < c.length() && Character.isLetter(c.charAt(space))) {
                space++;
            }
            String first = c.substring(0, space).toLowerCase(Locale.ROOT);
            if (!OPENER_STARTS.contains(first)
                    || first.equals("i")
                            && !c.toLowerCase(Locale.ROOT)
                                    .matches("^i (am|wanted|want|have|had|mean|would say)\\b.*")) {
                break;
            }
            var m = OPENER.matcher(c);
            if (!m.find()) {
                break;
            }
            String rest = c.substring(m.end()).strip();
            // "Yeah" alone, "Hi Mel", or "Thanks, Maria!": nothing left to read.
            if (rest.isEmpty() || VOCATIVE.matcher(rest).matches()) {
                return "";
            }
            // Keep a following "I" capitalised; a capitalised name after an opener ("Hey Mel,") is
            // part of the opener.
            c = rest;
        }
        return c;
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 127) {
                return false;
            }
        }
        return true;
    }

    private static final String[] ASIDE_WORDS = {
        " rn ", " tbh ", " ngl ", " atm ", " lowkey ", " imo "
    };

    /** Lower case, for matching. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
