package io.engram.extraction.statements;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A message that names the value of one of the speaker's statements and one other name of the same
 * shape, beside a word of change, in words no reader knows: "finally out of wrexham!! keys to the
 * new place in Shrewsbury came thru", "uninstalled ember tactics lol. Hollowmere has eaten my
 * life". The whole message is carried to the planner, which reads it against the speaker's current
 * statements (a statement whose value is a name, named in the message, and exactly one other name
 * in it): the other name is the value now.
 *
 * <p>Names only: a capitalised word inside a sentence, or at a sentence's start in a message typed
 * in lower case. Nothing planned, wished, past, visited or someone else's anywhere in the message.
 */
public final class NamedInstead {

    /** The tag of a candidate that carries such a message, beside {@link ValueHint#TAG}. */
    public static final String TAG = "value-named";

    private NamedInstead() {}

    /** Words of a change, one of which the message must hold. */
    private static final Pattern CHANGE =
            Pattern.compile(
                    "(?i)\\b(?:new|now|finally|switched|registered|signed up|joined|found|picked up|bought|got an?|started|moved|out of|never going back|no more|gone|over|done|dead|uninstalled|deleted|sold|traded|replaced|taken over|instead|these days|any ?more|no longer|ditched|left|quit|cancell?ed|dumped|died|carked|totall?ed|written off|wrote off|ported|transferred|upgraded|since|shifted|ended|went with|gone with|signed with|swapped|reporting to)\\b");

    /** Sequences of capitalised words, a model number after them ("Quanta S3", "Dublin 8"). */
    /** Titles a name may open with, their full stop after them or not. */
    private static final String TITLES = "(?:Dr|Mr|Mrs|Ms|St|Mt)";

    private static final Pattern CAPITALISED =
            Pattern.compile(
                    "(?<![\\p{L}0-9'’@#/.-])(?:"
                            + TITLES
                            + "\\.?\\s+)?"
                            + "\\p{Lu}[\\p{L}0-9'’&-]*(?:\\s+(?:&\\s+|of\\s+|de\\s+)?\\p{Lu}[\\p{L}0-9'’&-]*|\\s+\\d{1,4}[A-Za-z]?\\b)*");

    private static final Pattern TITLE = Pattern.compile(TITLES + "\\.?\\s");

    /** Capitalised words that name nothing of the speaker's. */
    private static final Set<String> NOT_NAMES =
            Set.of(
                    "i",
                    "i'm",
                    "i’m",
                    "i've",
                    "i’ve",
                    "i'd",
                    "i’d",
                    "i'll",
                    "i’ll",
                    "ok",
                    "okay",
                    "omg",
                    "lol",
                    "lmao",
                    "tbh",
                    "ngl",
                    "idk",
                    "btw",
                    "dr",
                    "mr",
                    "mrs",
                    "ms",
                    "the",
                    "a",
                    "an",
                    "my",
                    "mom",
                    "mum",
                    "dad",
                    "yes",
                    "no",
                    "hey",
                    "hi",
                    "oh",
                    "christmas",
                    "easter",
                    "xmas",
                    "god",
                    "jesus",
                    "uni",
                    "tv",
                    "st");

    /** Words of a value that stays: "still at acme", "dry creek forever", "not upgrading". */
    private static final Pattern STAYS =
            Pattern.compile(
                    "(?i)\\b(?:still|forever|staying|sticking with|loyal|not (?:\\p{L}+ing|leaving|moving|switching|changing)|never (?:leaving|switching|changing))\\b");

    /**
     * Whether a message may tell such a change: a word of change and one name at least, or a word
     * of an amount one has (rent, pay, weight) and a number.
     */
    public static boolean mayTell(String speaker, String message) {
        return !STAYS.matcher(message).find()
                && (CHANGE.matcher(message).find() && !names(speaker, message).isEmpty()
                        || AmountInstead.mayTell(message))
                && !ValueHint.notTheSpeakersNow(message);
    }

    private static final Pattern TITLE_DOT = Pattern.compile("\\b(" + TITLES + ")\\.\\s?");

    /** "looks like a Ferrari now": a likeness, not a value. */
    private static final Pattern LIKENED =
            Pattern.compile("(?i)\\b(?:like|as|than|than a|of)\\s+(?:an?\\s+|the\\s+)?$");

    /** "now on the AWS billing team": a name that says which team, office or app, no value. */
    private static final Pattern PART_OF =
            Pattern.compile(
                    "(?i)(?:\\s+[a-z]+)?\\s+(?:team|office|branch|department|dept|division|account|app|site|store|location|group|chat|server|channel)\\b");

    private static final Pattern CLAUSE_END =
            Pattern.compile("[,.!?;:…()]+|\\s[-–—]+\\s|\\s(?:but|so|and)\\s");

    /**
     * Whether {@code name} stands in a clause of its own, apart from every word of {@code words},
     * and not in a question: "halcyon just moved into a new office on Baker St" tells where the old
     * value went, "what do u think of the new Quanta S4?" asks.
     */
    public static boolean apart(String message, String name, List<String> words) {
        String text = TITLE_DOT.matcher(message).replaceAll("$1 ");
        String n = TITLE_DOT.matcher(name).replaceAll("$1 ");
        // A name read from lower case ("giffgaff") is stored capitalised; whole words only ("ING"
        // is not the end of "charging").
        Matcher whole =
                Pattern.compile("(?i)(?<![\\p{L}0-9])" + Pattern.quote(n) + "(?![\\p{L}0-9])")
                        .matcher(text);
        int at = whole.find() ? whole.start() : -1;
        if (at < 0
                || LIKENED.matcher(text.substring(0, at)).find()
                || PART_OF.matcher(text.substring(at + n.length())).lookingAt()) {
            return false;
        }
        message = text;
        name = n;
        int start = 0;
        int end = message.length();
        Matcher m = CLAUSE_END.matcher(message);
        while (m.find()) {
            if (m.end() <= at) {
                start = m.end();
            } else if (m.start() >= at + name.length()) {
                end = m.start();
                break;
            }
        }
        if (namesAny(message.substring(start, end), words)) {
            return false;
        }
        int question = message.indexOf('?', at);
        int stop = indexOfAny(message, at, ".!\n");
        return question < 0 || stop >= 0 && stop < question;
    }

    private static int indexOfAny(String s, int from, String chars) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The names a message gives, in order: capitalised words inside a sentence; at a sentence's
     * start only when the message is typed in lower case (its first letter is). Shouted words,
     * months, days, the speaker and words that name nothing are left out.
     */
    public static List<String> names(String speaker, String message) {
        return names(speaker, message, true);
    }

    /**
     * As {@link #names(String, String)}; with {@code lowerCase} false, without the names read from
     * words typed in lower case (a name typed as one goes before them).
     */
    public static List<String> names(String speaker, String message, boolean lowerCase) {
        Set<String> out = new LinkedHashSet<>();
        boolean lowerCaseTyper = firstLetterIsLowerCase(message);
        Matcher m = CAPITALISED.matcher(message);
        while (m.find()) {
            String name = m.group().strip();
            if (atSentenceStart(message, m.start())
                    && !lowerCaseTyper
                    && !TITLE.matcher(name).lookingAt()) {
                // "Big news, sort of.": a sentence's first word; the name may follow it.
                int space = name.indexOf(' ');
                if (space < 0) {
                    continue;
                }
                name = name.substring(space + 1);
            }
            name = withoutOpeners(name);
            // Shouted words are no names; an acronym of up to four letters is ("ANZ", "ING").
            boolean shouted =
                    name.equals(name.toUpperCase(Locale.ROOT))
                            && !name.matches(".*\\d.*")
                            && (name.length() > 4 || name.contains(" "));
            if (name.isEmpty()
                    || shouted
                    || name.length() < 2
                    || name.equalsIgnoreCase(speaker)
                    || notAName(name)) {
                continue;
            }
            out.add(name);
        }
        // "new place in ludlow", "reporting to priya now": a word typed in lower case where a
        // value stands, that no everyday vocabulary holds.
        Matcher low = LOWER_CASE_SLOT.matcher(message);
        while (lowerCase && low.find()) {
            String word = low.group(1);
            if (RareWords.rare(word)
                    && !word.equalsIgnoreCase(speaker)
                    && !notAName(word)
                    && out.stream().noneMatch(n -> n.equalsIgnoreCase(word))) {
                out.add(Character.toUpperCase(word.charAt(0)) + word.substring(1));
            }
        }
        return new ArrayList<>(out);
    }

    /**
     * A lower-case word right after a word that puts a value after it; not after "the" ("on the
     * lanyard" is a thing, "into monzo" a name).
     */
    private static final Pattern LOWER_CASE_SLOT =
            Pattern.compile(
                    "(?<=\\b(?:in|to|at|with|called|named|from|joined|into) )([a-z][a-z'’-]{3,})\\b(?![-'’])");

    /**
     * The words a stored value is named by: its capitalised words of three letters or more ("The
     * Lantern Thieves": lantern, thieves; "a 2014 Velaro hatchback": velaro), lower-cased.
     */
    public static List<String> nameWords(String value) {
        List<String> out = new ArrayList<>();
        for (String w : value.split("[^\\p{L}0-9'’-]+")) {
            if (w.length() >= 3
                    && Character.isUpperCase(w.charAt(0))
                    && !NOT_NAMES.contains(w.toLowerCase(Locale.ROOT))) {
                out.add(w.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /**
     * Whether a stored value is a name: a capitalised word comes past an article, a year and at
     * most two other words, none of them a preposition ("a 2014 Velaro hatchback", "a red Tamsin
     * Mini", "called Mr. Sharma"; not "a junior dev at Monzo").
     */
    public static boolean namedValue(String value) {
        int before = 0;
        for (String w : value.strip().split("\\s+")) {
            if (w.isEmpty()) {
                continue;
            }
            String lower = w.toLowerCase(Locale.ROOT);
            if (lower.matches("an?|the|\\d{2,4}")) {
                continue;
            }
            if (Character.isUpperCase(w.charAt(0))) {
                return !NOT_NAMES.contains(w.toLowerCase(Locale.ROOT))
                        || TITLE_WORD.matcher(w).matches();
            }
            // "a junior dev at Monzo": a role, and where it is held ("with Aviva" is a name).
            if (lower.matches("at|for|with|in|from|on") ? before > 0 : ++before > 2) {
                return false;
            }
        }
        return false;
    }

    private static final Pattern TITLE_WORD = Pattern.compile(TITLES + "\\.?");

    /** Whether the message names a word of {@code words}, whole, in any case. */
    public static boolean namesAny(String message, List<String> words) {
        String lower = message.toLowerCase(Locale.ROOT);
        for (String w : words) {
            if (Pattern.compile("(?<![\\p{L}0-9])" + Pattern.quote(w) + "(?![\\p{L}0-9])")
                    .matcher(lower)
                    .find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a statement of this attribute is one a new name replaces: not a relative's nor a
     * pet's (a new name beside them is another one), not a partner's.
     */
    public static boolean replaceable(String attribute) {
        String a = attribute.toLowerCase(Locale.ROOT);
        if (a.equals("relationship status") || a.equals("preferred name")) {
            return false;
        }
        // "dog's name", "older sister": any word of a relative or a pet.
        for (String w : a.split("[^\\p{L}]+")) {
            if (Lexicons.RELATIONS.contains(w.replaceFirst("s$", ""))
                    || Lexicons.RELATIONS.contains(w)) {
                return false;
            }
        }
        return !Lexicons.RELATIONS.contains(a);
    }

    private static String withoutOpeners(String name) {
        return name.replaceFirst("^(?:The|A|An|My|Our)\\s+", "");
    }

    private static boolean notAName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        String first = lower.split("\\s+")[0];
        return NOT_NAMES.contains(lower)
                || NOT_NAMES.contains(first) && !lower.contains(" ")
                || lower.matches(
                        "(?:" + TimePhrases.MONTHS + "|" + TimePhrases.WEEKDAYS + ")\\b.*");
    }

    private static boolean firstLetterIsLowerCase(String message) {
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (Character.isLetter(c)) {
                return Character.isLowerCase(c);
            }
        }
        return false;
    }

    /**
     * Whether only spaces, emoji or a sentence's end stand between the text's start and {@code at}.
     */
    private static boolean atSentenceStart(String text, int at) {
        for (int i = at - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                continue;
            }
            return c == '.'
                    || c == '!'
                    || c == '?'
                    || c == '…'
                    || c == '\n'
                    || c == ':'
                    || !Character.isLetterOrDigit(c) && c != ',' && c != '\'' && c != '’';
        }
        return true;
    }
}
