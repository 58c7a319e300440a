package io.engram.query.agentic;

import io.engram.text.Text;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a question's words say about how to search for its answer: the names it mentions, whether it
 * asks for a set of things, a relation to follow or a time relative to an event, and whether it
 * joins two subjects or two questions. No model; English only.
 */
public final class QuestionShape {

    private QuestionShape() {}

    private static final Pattern CAPITALIZED = Pattern.compile("\\b\\p{Lu}[\\p{L}\\p{N}-]*");

    /** Capitalised words that open or shape a question and name nothing. */
    static final Set<String> NOT_NAMES =
            Set.of(
                    "what",
                    "when",
                    "where",
                    "who",
                    "whom",
                    "whose",
                    "why",
                    "how",
                    "which",
                    "did",
                    "does",
                    "do",
                    "is",
                    "are",
                    "was",
                    "were",
                    "has",
                    "have",
                    "had",
                    "can",
                    "could",
                    "would",
                    "should",
                    "will",
                    "i",
                    "in",
                    "on",
                    "at",
                    "tell",
                    "list",
                    "name",
                    "give",
                    "any",
                    "after",
                    "before",
                    "since",
                    "during",
                    "according",
                    "besides",
                    "apart",
                    "other",
                    "than",
                    "both",
                    "as",
                    "if",
                    "considering",
                    "based",
                    "given",
                    "would've",
                    "is't",
                    "lgbtq",
                    "lgbtq+",
                    "ok",
                    "okay",
                    "hey",
                    "hi",
                    "please");

    static final Set<String> MONTHS =
            Set.of(
                    "january",
                    "february",
                    "march",
                    "april",
                    "may",
                    "june",
                    "july",
                    "august",
                    "september",
                    "october",
                    "november",
                    "december",
                    "monday",
                    "tuesday",
                    "wednesday",
                    "thursday",
                    "friday",
                    "saturday",
                    "sunday");

    /** Nouns of people one person has in relation to another. */
    static final Set<String> RELATIONS =
            Set.of(
                    "spouse",
                    "wife",
                    "husband",
                    "partner",
                    "boss",
                    "manager",
                    "ceo",
                    "founder",
                    "owner",
                    "friend",
                    "friends",
                    "brother",
                    "sister",
                    "mother",
                    "father",
                    "mom",
                    "dad",
                    "son",
                    "daughter",
                    "child",
                    "children",
                    "kid",
                    "kids",
                    "colleague",
                    "coworker",
                    "roommate",
                    "neighbor",
                    "neighbour",
                    "teacher",
                    "mentor",
                    "doctor",
                    "girlfriend",
                    "boyfriend",
                    "parent",
                    "parents",
                    "grandma",
                    "grandpa",
                    "grandmother",
                    "grandfather",
                    "family",
                    "team",
                    "company",
                    "employer",
                    "pet",
                    "pets",
                    "dog",
                    "cat");

    /** Question words that ask about nothing in particular ("what kind of", "how many times"). */
    static final Set<String> GENERIC =
            Set.of(
                    "kind",
                    "type",
                    "sort",
                    "thing",
                    "time",
                    "way",
                    "some",
                    "many",
                    "much",
                    "ever",
                    "recently",
                    "usually",
                    "often",
                    "like",
                    "both",
                    "common",
                    "also",
                    "other",
                    "different",
                    "specific",
                    "particular",
                    "certain",
                    "one",
                    "lot",
                    "still",
                    "currently",
                    "now",
                    "name",
                    "list",
                    "tell");

    private static final Set<String> NOT_PLURAL =
            Set.of("does", "is", "has", "was", "this", "his", "its", "yes", "us", "as", "plus");

    private static final Pattern KINDS_OF =
            Pattern.compile("(?i)^\\s*(?:what|which)\\s+(?:kinds?|types?|sorts?)\\s+of\\b");
    private static final Pattern WH_NOUN =
            Pattern.compile("(?i)^\\s*(?:what|which)\\s+([\\p{L}'’/+-]+)(?:\\s+([\\p{L}'’/+-]+))?");

    /** "What are Sam's hobbies", "what were the names of …": a plural within the next words. */
    private static final Pattern WH_ARE =
            Pattern.compile(
                    "(?i)^\\s*(?:what|which|who)\\s+(?:are|were)\\s+((?:[\\p{L}'’+-]+\\s+){0,3}[\\p{L}'’+-]+)");

    /**
     * "What has Sam painted", "where have they camped": what a person has done over time is asked
     * of every time it was done.
     */
    private static final Pattern WH_PERFECT =
            Pattern.compile("(?i)^\\s*(?:what|where|who|which)\\s+(?:has|have)\\b");

    private static final Pattern SET_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:how many|what are some|in what ways|what ways|all the|every|ever|"
                            + "list|name some|both|in common|so far|various|which ones)\\b");
    private static final Pattern TEMPORAL_RELATION =
            Pattern.compile(
                    "(?i)\\b(?:before|after|since|until|prior to|following|around the time)\\s+"
                            + "(?:the|his|her|their|my|our|a|an|\\p{Lu}|\\p{L}+ing\\b)");
    private static final Pattern RELATION_OF =
            Pattern.compile("(?i)\\b([\\p{L}]+)\\s+of\\s+(?:the|my|his|her|their|our|\\p{Lu})");
    private static final Pattern POSSESSIVE =
            Pattern.compile(
                    "(?i)\\b(?:[\\p{L}]+['’]s?|my|his|her|their|our|your)\\s+([\\p{L}]+)(?:\\s+([\\p{L}]+))?");
    private static final Pattern PAIR =
            Pattern.compile(
                    "\\b(\\p{Lu}[\\p{L}-]*)((?:['’]s?)?)\\s*(?:,|\\s(?:and|or|&))\\s+"
                            + "(?:(?:and|or|&)\\s+)?(\\p{Lu}[\\p{L}-]*)((?:['’]s?)?)");
    private static final Pattern TWO_QUESTIONS =
            Pattern.compile(
                    "(?i)^(.*?\\S)\\s*[,;]?\\s+(?:and|but|also)\\s+((?:when|what|where|who|why|how|"
                            + "which)\\b.*)$");
    private static final Pattern JOINING_WORDS =
            Pattern.compile("(?i)\\s*\\b(?:both|each|in common|together|also|as well)\\b");

    /** The names a question mentions (capitalised words that are not question words or months). */
    public static List<String> names(String question) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = CAPITALIZED.matcher(question);
        while (m.find()) {
            String w = stripPossessive(m.group());
            String lower = w.toLowerCase(Locale.ROOT);
            if (NOT_NAMES.contains(lower)
                    || MONTHS.contains(lower)
                    || Text.STOPWORDS.contains(lower)
                    || w.length() < 2) {
                continue;
            }
            out.add(w);
        }
        return new ArrayList<>(out);
    }

    static String stripPossessive(String word) {
        return word.replaceFirst("['’]s?$", "");
    }

    /** Whether the question asks for a set of things (several activities, how many times). */
    public static boolean asksForSet(String question) {
        if (KINDS_OF.matcher(question).find() || SET_WORDS.matcher(question).find()) {
            return true;
        }
        if (WH_PERFECT.matcher(question).find()) {
            return true;
        }
        Matcher are = WH_ARE.matcher(question);
        if (are.find()) {
            for (String w : are.group(1).split("\\s+")) {
                if (plural(w.replaceAll("[+]+$", ""))) {
                    return true;
                }
            }
        }
        Matcher wh = WH_NOUN.matcher(question);
        if (wh.find()) {
            // "what books …", or past one adjective: "what musical artists …".
            if (plural(wh.group(1))) {
                return true;
            }
            return wh.group(2) != null
                    && !VERBS.contains(lower(wh.group(1)))
                    && plural(wh.group(2));
        }
        return false;
    }

    /** Words after "what" that make it ask about an action, not a kind of thing. */
    private static final Set<String> VERBS =
            Set.of(
                    "do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can",
                    "could", "will", "would", "should", "might", "must", "kind", "kinds", "type",
                    "types", "sort");

    private static String lower(String word) {
        return word.toLowerCase(Locale.ROOT).replace('’', '\'');
    }

    private static boolean plural(String word) {
        String noun = lower(word);
        if (noun.endsWith("'")) {
            noun = noun.substring(0, noun.length() - 1);
        }
        return noun.length() > 3
                && noun.endsWith("s")
                && !noun.endsWith("ss")
                && !noun.endsWith("us")
                && !noun.endsWith("'s")
                && !NOT_PLURAL.contains(noun)
                && !VERBS.contains(noun);
    }

    /** Whether it asks about a person through another ("the wife of the CEO", "Mel's kids"). */
    public static boolean followsRelation(String question) {
        Matcher of = RELATION_OF.matcher(question);
        while (of.find()) {
            if (RELATIONS.contains(of.group(1).toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        Matcher pos = POSSESSIVE.matcher(question);
        while (pos.find()) {
            if (RELATIONS.contains(lower(pos.group(1)))
                    || (pos.group(2) != null && RELATIONS.contains(lower(pos.group(2))))) {
                return true;
            }
        }
        return false;
    }

    /** Whether it places its answer relative to another event ("after the road trip"). */
    public static boolean relativeInTime(String question) {
        return TEMPORAL_RELATION.matcher(question).find();
    }

    /**
     * The independent parts of a question that joins two subjects ("What do Jon and Gina both
     * like?" → one question about each) or two questions ("When did X start, and what did she
     * sell?"); empty when it is one question.
     */
    public static List<String> parts(String question) {
        List<String> names = names(question);
        Matcher pair = PAIR.matcher(question);
        while (pair.find()) {
            String a = pair.group(1);
            String b = pair.group(3);
            if (!a.equals(b) && names.contains(a) && names.contains(b)) {
                List<String> out = new ArrayList<>();
                for (String[] who :
                        List.of(new String[] {a, pair.group(2)}, new String[] {b, pair.group(4)})) {
                    String one =
                            question.substring(0, pair.start())
                                    + who[0]
                                    + who[1]
                                    + question.substring(pair.end());
                    out.add(tidy(JOINING_WORDS.matcher(one).replaceAll("")));
                }
                return out;
            }
        }
        Matcher two = TWO_QUESTIONS.matcher(question);
        if (two.find() && startsWithQuestionWord(two.group(1))) {
            String first = tidy(two.group(1));
            String second = tidy(two.group(2));
            List<String> secondNames = names(second);
            List<String> missing =
                    names(first).stream().filter(n -> !secondNames.contains(n)).toList();
            if (!missing.isEmpty()) {
                second = second + " (" + String.join(", ", missing) + ")";
            }
            return List.of(first, second);
        }
        return List.of();
    }

    private static boolean startsWithQuestionWord(String text) {
        List<String> words = Text.words(text);
        return !words.isEmpty()
                && Set.of(
                                "when", "what", "where", "who", "why", "how", "which", "did",
                                "does", "do", "is", "are", "has", "have", "was", "were")
                        .contains(words.get(0));
    }

    private static String tidy(String text) {
        return text.replaceAll("\\s+", " ").replaceAll("\\s+([?.,!])", "$1").strip();
    }

    /** The words a question asks about: its content words without its names or generic words. */
    public static Set<String> topic(String question) {
        Set<String> out = new LinkedHashSet<>(Text.contentWords(question));
        for (String n : names(question)) {
            out.remove(Text.fold(n.toLowerCase(Locale.ROOT)));
        }
        out.removeAll(GENERIC);
        out.removeIf(w -> NOT_NAMES.contains(w));
        return out;
    }
}
