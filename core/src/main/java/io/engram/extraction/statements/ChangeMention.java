package io.engram.extraction.statements;

import io.engram.text.Text;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sentence of the speaker's that names the value of one of their current statements beside words
 * of change, when no reader gives what the value is now: "corsa finally died on the m4 lmao", "not
 * single anymore 👀", "hot take but tacos have overtaken sushi". The statement is no longer to be
 * presented as current; the turn that said it (its excerpt) is what contradicts it. What replaced
 * the value is left to the words of that turn.
 *
 * <p>Read only in the speaker's own clause: the value's word and a word of change in one clause,
 * the word neither someone's ("greg's manager quit") nor the subject of another's doing ("alex
 * switched jobs"); nothing planned, wished, denied, past or someone else's in the sentence.
 */
public final class ChangeMention {

    /**
     * The tag of a candidate that carries such a sentence to the planner, beside {@link
     * ValueHint#TAG} (a hint: never stored as said, no fact of a summary).
     */
    public static final String TAG = "change-mention";

    private ChangeMention() {}

    /** Words of change, one of which must stand in the value's clause. */
    private static final Pattern CHANGE =
            Pattern.compile(
                    "(?i)\\b(?:any ?more|no longer|no more|switched|moved|quit|left|stopped|cancell?ed|ditched|dropped|replaced|traded|sold|rip|gave up|give up|given up|done with|got rid|lapsed?|pulled|retired|dethroned|overtaken|taken over|broke up|split up|(?:have|has|had|just) split|split from|divorced?|closed|deleted|folded|died|withdrew|withdrawn|disbanded|carked|totall?ed|written off|wrote off|uninstalled|unsubscribed|done being|done for me)\\b|\\binstead of\\b|\\b(?:is|are|was)\\s+over\\b|['’]s\\s+over\\b");

    /** Cheap first test for {@link #CHANGE}. */
    private static final String[] CHANGE_WORDS = {
        "more",
        "longer",
        "witch",
        "moved",
        "instead",
        "quit",
        "left",
        "topp",
        "ancel",
        "itched",
        "ropp",
        "eplac",
        "raded",
        "sold",
        "rip",
        "RIP",
        "ave up",
        "iven up",
        "done with",
        "got rid",
        "lapse",
        "pulled",
        "retired",
        "ethroned",
        "vertaken",
        "aken over",
        "broke up",
        "plit up",
        "ivorc",
        "now",
        "closed",
        "deleted",
        "folded",
        "died",
        "split",
        "withdr",
        "isband",
        "carked",
        "otal",
        "ritten off",
        "rote off",
        "uninstall",
        "unsubscrib",
        "done being",
        "done for me",
        "over"
    };

    /** Words that make a sentence no change of the speaker's own now. */
    private static final Pattern NOT_NOW =
            Pattern.compile(
                    "(?i)\\b(?:still|almost|nearly|till|until|season|meantime|reopens?|for (?:a|\\d+|two|three|a few|a couple of) (?:days?|weeks?|months?)|didn'?t|did not|not (?:upgrading|switching|changing|getting|buying|moving|leaving|quitting|swapping|trading)|nope|if|april fools?|used to|back in|back when|might|maybe|thinking|considering|for now|rumou?r|when i was|years ago|wish|would|could|should|gonna|going to|tomorrow|next (?:week|month|year|time)|my (?:"
                            + ValueHint.OTHER
                            + "))\\b|\\?");

    /** A sentence about someone else: "he's at Nike now", "they moved". */
    private static final Pattern THEIRS =
            Pattern.compile("(?i)^\\s*(?:he|she|they)(?:'s|'re|’s)?\\b");

    /** Words right after a value's word that make it the subject of someone's doing. */
    private static final Pattern DOING =
            Pattern.compile(
                    "^(?:and (?:i|me)|just |moved|switched|changed|quit|left|got |learned|learnt|is being|was off|was out|chewed|ate|broke|(?:"
                            + ValueHint.OTHERS
                            + ")\\b|[a-z]+ (?:my|our|the|a|an|his|her|their|your)\\b)");

    /** A clause told of someone else: "a friend left the running club". */
    private static final Pattern SOMEONE =
            Pattern.compile(
                    "^\\s*(?:(?:a|one of my|my|his|her|their|your|some) (?:"
                            + ValueHint.OTHERS
                            + "|mate|guy|girl|woman|man|person|people|lady|bloke)|someone|somebody|everyone|he|she|they)\\b");

    /** Where a clause ends: a mark, a linking word or a run of emoji. */
    private static final Pattern CLAUSE =
            Pattern.compile(
                    "[,;:.!?()]+|\\s(?:but|so|and|then|tho|though|because|bc|cos|after)\\s|\\s[^\\p{L}\\p{N}\\s'’&$£€-]+(?:\\s|$)");

    /** Words of a statement that name a kind of value, not the value: "fan", "team", "food". */
    private static final Set<String> KINDS =
            Set.of(
                    "fan",
                    "team",
                    "band",
                    "food",
                    "show",
                    "game",
                    "drink",
                    "class",
                    "club",
                    "member",
                    "shift",
                    "school",
                    "primary",
                    "elementary",
                    "high",
                    "favourite",
                    "favorite",
                    "fave",
                    "fav",
                    "main",
                    "place",
                    "thing",
                    "stuff",
                    "people",
                    "home",
                    "house",
                    "flat",
                    "work",
                    "job",
                    "time",
                    "day",
                    "week",
                    "weekend",
                    "morning",
                    "evening",
                    "night",
                    "year",
                    "month",
                    "free",
                    "every",
                    "about",
                    "around",
                    "times",
                    "twice",
                    "once",
                    "local",
                    "new",
                    "old",
                    "good",
                    "big",
                    "little",
                    "really",
                    "their",
                    "they",
                    "them",
                    "with",
                    "from",
                    "into",
                    "named",
                    "called",
                    "total",
                    "full");

    /** Whether {@code sentence} may name a value beside words of change: a cheap test first. */
    public static boolean tells(String sentence) {
        String s = sentence.strip();
        return !s.isEmpty()
                && Text.containsAny(s, CHANGE_WORDS)
                && CHANGE.matcher(s).find()
                && !NOT_NOW.matcher(s).find()
                && !THEIRS.matcher(s).find()
                && !TimePhrases.future(s);
    }

    /**
     * The word of {@code statement}'s value (a current statement of {@code subject}'s: "Dana drives
     * a 2014 Vauxhall Corsa.") that {@code sentence} names in a clause with a word of change, if
     * any.
     */
    public static Optional<String> names(String subject, String statement, String sentence) {
        return named(subject, statement, changeClauses(sentence));
    }

    /**
     * The clauses of {@code sentence} in lower case that hold a word of change and tell of no one
     * else, where a value may be named; none when the sentence tells no change of the speaker's.
     * Read once per sentence, then against every statement with {@link #named}.
     */
    public static List<String> changeClauses(String sentence) {
        if (!tells(sentence)) {
            return List.of();
        }
        String s = sentence.toLowerCase(Locale.ROOT).replace('’', '\'');
        List<String> out = new ArrayList<>();
        for (String clause : CLAUSE.split(s)) {
            if (CHANGE.matcher(clause).find() && !SOMEONE.matcher(clause).find()) {
                out.add(clause);
            }
        }
        return out;
    }

    /** The word of {@code statement}'s value that one of {@code clauses} names, if any. */
    public static Optional<String> named(String subject, String statement, List<String> clauses) {
        if (clauses.isEmpty()) {
            return Optional.empty();
        }
        Set<String> value = valueWords(subject, statement);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        for (String clause : clauses) {
            Optional<String> named = namedIn(clause, value);
            if (named.isPresent()) {
                return named;
            }
        }
        return Optional.empty();
    }

    /** "instead of the bus": a change only of what follows it. */
    private static final Pattern INSTEAD_OF =
            Pattern.compile("\\binstead of (?:the |my |our |a |an )?(?:[\\p{L}'-]+ ){0,2}$");

    private static Optional<String> namedIn(String clause, Set<String> value) {
        // "coconut oil instead of butter" tells nothing of the coconut.
        Matcher other = CHANGE.matcher(clause.replaceAll("\\binstead of\\b", " "));
        boolean onlyInstead = !other.find();
        List<String> words = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        Matcher w = WORD.matcher(clause);
        while (w.find()) {
            words.add(w.group());
            starts.add(w.start());
        }
        String before = "";
        String beforeThat = "";
        boolean located = false;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            boolean named = value.contains(stem(word));
            // "switched desks at lumen labs", "phone died in the fabia": where something else
            // changed, the whole name.
            // "gave up on the bears": the leaving, not a place.
            located = named && (PLACED.contains(before) && !"up".equals(beforeThat) || located);
            if (!ARTICLES.contains(word)) {
                beforeThat = before;
                before = word;
            }
            if (!named
                    || located
                    || onlyInstead && !INSTEAD_OF.matcher(clause.substring(0, starts.get(i))).find()
                    // "greg's manager": someone of theirs.
                    || word.endsWith("'s")
                    || word.endsWith("'")) {
                continue;
            }
            int end = starts.get(i) + word.length();
            if (DOING.matcher(clause.substring(end).stripLeading()).find()) {
                continue;
            }
            // "left my fabia unlocked", "dropped the fabia off for its mot": the value moved,
            // not left.
            int next = i + 1;
            while (next < words.size() && value.contains(stem(words.get(next)))) {
                next++;
            }
            // "left shoreditch in march" is when, not where.
            if (next < words.size()
                    && MOVED.contains(words.get(next))
                    && !(next + 1 < words.size() && WHEN.contains(words.get(next + 1)))) {
                continue;
            }
            return Optional.of(word);
        }
        return Optional.empty();
    }

    /** Words before a value that place something else at it: "at", "in the". */
    private static final Set<String> PLACED =
            Set.of("at", "in", "on", "into", "onto", "by", "near", "with", "inside", "under");

    /** Words after "in", "on" or "at" that tell when. */
    private static final Set<String> WHEN =
            words(
                    TimePhrases.MONTHS
                            + "|"
                            + TimePhrases.WEEKDAYS
                            + "|spring|summer|autumn|fall|winter|the");

    private static final Set<String> ARTICLES = Set.of("the", "a", "an", "my", "our", "their");

    /** Words after a value that tell it was moved or used, not left. */
    private static final Set<String> MOVED =
            Set.of(
                    "off",
                    "unlocked",
                    "open",
                    "outside",
                    "behind",
                    "back",
                    "somewhere",
                    "there",
                    "here",
                    "again",
                    "up",
                    "down",
                    "round",
                    "around",
                    "so",
                    "to",
                    "into",
                    "onto",
                    "at",
                    "in",
                    "on",
                    "with",
                    "by",
                    "near",
                    "under");

    private static final Set<String> DAYS =
            words(
                    TimePhrases.WEEKDAYS
                            + "|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays"
                            + "|weekday|weekdays|weekends|mornings|evenings|nights");

    private static Set<String> words(String alternatives) {
        return Set.copyOf(java.util.Arrays.asList(alternatives.split("\\|")));
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'&-]*");

    /**
     * The words that name {@code statement}'s value: its key's value when it has one, else what
     * follows its subject and verb; without words of a kind, of time or of two letters.
     */
    static Set<String> valueWords(String subject, String statement) {
        String c = statement.strip();
        Optional<FactKey> key = FactKey.of(c);
        String value;
        if (key.isPresent()) {
            if (!key.get().subject().equalsIgnoreCase(subject)) {
                return Set.of();
            }
            value = key.get().quoted();
        } else if (c.startsWith(subject + " ")) {
            String rest = c.substring(subject.length() + 1);
            int verb = rest.indexOf(' ');
            value = verb < 0 ? "" : rest.substring(verb + 1);
        } else {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        String self = subject.toLowerCase(Locale.ROOT);
        for (String w : Text.words(value)) {
            if (w.length() < 3
                    || w.endsWith("ing") && key.isEmpty()
                    || Text.STOPWORDS.contains(w)
                    || KINDS.contains(w)
                    || w.equals(self)
                    || w.chars().allMatch(Character::isDigit)
                    || DAYS.contains(w)) {
                continue;
            }
            out.add(stem(w));
        }
        return out;
    }

    /** "martinis", "nights", "teaching" and "teacher" as "martini", "night", "teach". */
    static String stem(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (String end : List.of("ing", "ers", "er", "es", "s", "ed")) {
            if (w.endsWith(end) && w.length() - end.length() >= 4) {
                return w.substring(0, w.length() - end.length());
            }
        }
        return w;
    }
}
