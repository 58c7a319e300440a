package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import io.engram.text.WordLists;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bank, phone carrier, broadband provider, gym or streaming service told in passing, by its name
 * in {@code providers.txt}: "my monzo card got declined", "my sky broadband is down again", "im on
 * ee", "santander froze my card". Chat rarely says "I bank with Monzo"; it says what the card did.
 * Only the speaker's own one is read: "my" right before the name, "I'm with/on" it, or it doing
 * something to "me" or "my" card; a name that is also an everyday word ("Sky", "Three") only with
 * its service's noun after it. A clause that leaves, cancels or only plans one gives nothing.
 */
final class Providers {

    private Providers() {}

    /** How a kind is stored, and the nouns its service goes by. */
    private record Kind(String name, String nouns, String sentence) {}

    private static final List<Kind> KINDS =
            List.of(
                    new Kind(
                            "bank",
                            "card|debit card|credit card|account|current account|app|bank|overdraft|savings",
                            "%s banks with %s"),
                    new Kind(
                            "carrier",
                            "contract|sim|signal|data|plan|network|phone bill|coverage|reception",
                            "%s's carrier is %s"),
                    new Kind(
                            "broadband",
                            "broadband|wifi|wi-fi|internet|fibre|fiber|router|hub|box",
                            "%s's broadband provider is %s"),
                    new Kind("gym", "membership|gym|classes|class|pass", "%s's gym is %s"),
                    new Kind(
                            "insurer",
                            "policy|claim|insurance|health insurance|cover|plan",
                            "%s's insurer is %s"),
                    new Kind(
                            "energy",
                            "bill|direct debit|tariff|smart meter|account",
                            "%s's energy supplier is %s"),
                    new Kind(
                            "streaming",
                            "subscription|account|membership|premium|family|plan|login|password",
                            "%s has %s"));

    /** Each provider's name in lower case, to the name as written and its kind. */
    private record Named(String written, Kind kind, boolean everyday) {}

    private static final Map<String, Named> NAMES = new HashMap<>();

    /** When a name that is also an everyday word ("Sky", "Three") is read as the name. */
    private enum Everyday {
        /** With its service's noun after it: "my sky broadband". */
        WITH_NOUN,
        /** Written in the name's capitals: "EE". */
        IN_CAPITALS,
        /** Always: the words around it are the service's own ("chase charged me"). */
        ANY
    }

    /** A way chat tells the speaker has a provider; some only beside a word of the speaker's. */
    private record Form(Pattern pattern, Everyday everyday, boolean firstPerson, boolean change) {
        Form(Pattern pattern, Everyday everyday, boolean firstPerson) {
            this(pattern, everyday, firstPerson, false);
        }
    }

    /** Words of what is only planned, wished or denied, shared by the two tests below. */
    private static final String UNDONE =
            "not|never|don['’]?t|dont|thinking|considering|might|maybe|should|would|could|if|wish|want|wanna|gonna|going to|about to";

    /** Words that make a change to a provider one not done: planned, wished, denied. */
    private static final Pattern NOT_DONE =
            Pattern.compile("(?i)\\b(?:" + UNDONE + "|almost|nearly|tempted|cba)\\b");

    /** What may stand before a change of the speaker's own: the start, a stop, "I", "just". */
    private static final Pattern OWN_CHANGE_BEFORE =
            Pattern.compile(
                    "(?i)(?:^|[,.!?;:]\\s*|\\b(?:i|we|i['’]ve|ive|we['’]ve|i have|we have|just|finally|so|and|n|&|then|officially|also|lol|tbh|today|yesterday)\\s+)$");

    /** The speaker, somewhere in the clause. */
    private static final Pattern FIRST_PERSON =
            Pattern.compile("(?i)\\b(?:i|me|my|im|i['’]m|i['’]ve|ive|we|our|us|cant|can['’]t)\\b");

    /** "my sisters monzo card": the name after someone else's, typed without its apostrophe. */
    private static final Pattern SOMEONE_ELSES =
            Pattern.compile("(?i)\\b(?:my|our|his|her|their|your|ur) \\p{L}+(?:['’]s|s) $");

    /** Per kind, the forms it is told in. */
    private static final Map<String, List<Form>> FORMS = new HashMap<>();

    /** Words that make the provider not the speaker's now. */
    private static final Pattern NOT_NOW =
            Pattern.compile(
                    "(?i)\\b(?:"
                            + UNDONE
                            + "|no longer|cancell?(?:ed|ing)?|closed|closing|left|leaving|quit|switch(?:ed|ing)? (?:from|away)|moving from|used to|ex|old|former)\\b");

    /** Each name's first word (lower case, up to a sign), to the names that start with it. */
    private static final Map<String, List<String>> BY_FIRST_WORD = new HashMap<>();

    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    static {
        Map<String, Set<String>> lists = WordLists.sections(Providers.class, "providers.txt");
        for (Kind kind : KINDS) {
            List<String> all = new ArrayList<>();
            for (String entry : lists.get(kind.name())) {
                boolean everyday = entry.endsWith("*");
                String written = everyday ? entry.substring(0, entry.length() - 1) : entry;
                String lower = written.toLowerCase(Locale.ROOT);
                NAMES.put(lower, new Named(written, kind, everyday));
                BY_FIRST_WORD
                        .computeIfAbsent(NOT_WORD.split(lower)[0], k -> new ArrayList<>())
                        .add(lower);
                all.add(Pattern.quote(written));
            }
            Comparator<String> longest = Comparator.comparingInt(String::length).reversed();
            all.sort(longest);
            String a = "(?<p>" + String.join("|", all) + ")";
            String nouns = "(?<noun>" + kind.nouns() + ")";
            FORMS.put(
                    kind.name(),
                    List.of(
                            // "my monzo card", "our sky broadband", "my netflix".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:my|our) (?:new )?"
                                                    + a
                                                    + "(?:['’]s)?(?: "
                                                    + nouns
                                                    + ")?\\b"),
                                    Everyday.WITH_NOUN,
                                    false),
                            // "im on EE", "I'm with Vodafone", "im on blue cross now".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:i['’]?m|i am|we['’]?re|we are) (?:now |still |currently )?(?:with|on|w) "
                                                    + a
                                                    + "\\b"),
                                    Everyday.IN_CAPITALS,
                                    false),
                            // "I stream music on Spotify", "we watch everything on Netflix".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:i|we) (?:stream|listen to|watch)(?: (?:music|podcasts|shows|films|movies|tv|everything|stuff))? on "
                                                    + a
                                                    + "\\b"),
                                    Everyday.IN_CAPITALS,
                                    false),
                            // "santander froze my card", "chase charged me", "aetna denied my
                            // claim".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?:have |has |just |literally )?(?:froze|frozen|declined|denied|rejected|charged|billed|blocked|cut off|put up|upped|raised) (?:my|me|our|us)\\b(?! \\p{L}+['’]s\\b)"),
                                    Everyday.ANY,
                                    false),
                            // "virgin media put my bill up", "octopus put my direct debit up".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?:have |has |just )?put (?:my|our) (?:\\p{L}+ ){1,2}up\\b"),
                                    Everyday.ANY,
                                    false),
                            // "EE is useless on my road".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?:\\S+ ){1,4}?(?:on|at|in|for|to) my (?:road|street|flat|house|place|area|phone|bill|card|account|signal|data|router)\\b"),
                                    Everyday.IN_CAPITALS,
                                    false),
                            // "switched to three yesterday", "ported my number over to Lyca".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:switched|moved|ported|changed|transferred|swapped|gone|went|jumped ship)(?: (?!(?:from|away)\\b)\\S+){0,4}? (?:to|onto|over to) "
                                                    + a
                                                    + "\\b"),
                                    Everyday.ANY,
                                    false,
                                    true),
                            // "opened a starling acc", "got a giffgaff sim".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:opened|got|started|signed up for|took out) (?:a |an |my )?(?:new )?"
                                                    + a
                                                    + " (?:acc|account|card|contract|sim|membership|subscription|plan|policy)\\b"),
                                    Everyday.ANY,
                                    false,
                                    true),
                            // "joined the david lloyd near work", "signed up with giffgaff".
                            new Form(
                                    Pattern.compile(
                                            "(?i)\\b(?:joined|signed up (?:to|with|at)|went with|gone with) (?:the )?"
                                                    + a
                                                    + "\\b"),
                                    Everyday.IN_CAPITALS,
                                    false,
                                    true),
                            // "octopus switched us over today".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?:have |has |finally |just )?(?:switched|moved|took) (?:us|me) over\\b"),
                                    Everyday.ANY,
                                    false,
                                    true),
                            // "barclays app down AGAIN, cant even pay", "nationwide app wont let
                            // me".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?<noun>app|card) (?:is |was )?(?:down|not working|broken|wont|won['’]t|will not|isnt|isn['’]t|keeps|kept|got|froze|crashed|declined|locked)\\b"),
                                    Everyday.ANY,
                                    true),
                            // "virgin broadband dropped out during my zoom", "verizon bill is $95".
                            new Form(
                                    startingWith(
                                            a,
                                            " (?<noun>"
                                                    + kind.nouns()
                                                    + "|bill|contract|direct debit)\\b(?! (?:is|was) (?:not )?mine)"),
                                    Everyday.ANY,
                                    true)));
        }
    }

    /** The provider {@code clause} tells the speaker has, as {@code r}'s statement, if one. */
    static Optional<Read> of(Renderer r, String clause, Instant said) {
        // Most clauses name no provider: the forms are tried only for the kinds whose names are in
        // the words (a plain search, far cheaper than the forms' patterns).
        Set<Kind> present = kindsNamed(clause.toLowerCase(Locale.ROOT));
        for (Kind kind : KINDS) {
            if (!present.contains(kind)) {
                continue;
            }
            for (Form form : FORMS.get(kind.name())) {
                Matcher m = form.pattern().matcher(clause);
                if (!m.find()
                        || form.firstPerson() && !FIRST_PERSON.matcher(clause).find()
                        || SOMEONE_ELSES
                                .matcher(clause.substring(Math.max(0, m.start() - 25), m.start()))
                                .find()) {
                    continue;
                }
                // "thinking of switching to monzo", "closed my barclays account": near the name.
                String around =
                        clause.substring(
                                Math.max(0, m.start() - 40),
                                Math.min(clause.length(), m.end() + 12));
                if (form.change()
                        ? kind.name().equals("streaming")
                                || NOT_DONE.matcher(around).find()
                                || !ownChange(clause.substring(0, m.start()))
                        : NOT_NOW.matcher(around).find()) {
                    return Optional.empty();
                }
                Named named = NAMES.get(m.group("p").toLowerCase(Locale.ROOT));
                if (named == null || named.everyday() && !readAsName(form, m, named)) {
                    continue;
                }
                return Optional.of(
                        new Read(
                                "attribute",
                                MemoryType.SEMANTIC,
                                String.format(kind.sentence(), r.subject(), named.written())
                                        .replace(r.subject() + "'s", r.possessive()),
                                said,
                                0.7));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a change told after {@code before} is the speaker's: nothing but "I", "just" or a
     * stop right before it, and no one else named as its subject ("my dad closed his accounts and
     * moved everything to Ally", "she switched to Three").
     */
    private static boolean ownChange(String before) {
        if (!OWN_CHANGE_BEFORE.matcher(before).find() || SOMEONE.matcher(before).find()) {
            return false;
        }
        Matcher my = MY_WHO.matcher(before);
        while (my.find()) {
            String who = my.group(1).toLowerCase(Locale.ROOT);
            if (Lexicons.someone(who)) {
                return false;
            }
        }
        return true;
    }

    /** Someone other than the speaker, as a subject. */
    private static final Pattern SOMEONE =
            Pattern.compile("(?i)\\b(?:he|she|they|his|her|their)\\b");

    /** "my dad", "my sister": who follows "my". */
    private static final Pattern MY_WHO = Pattern.compile("(?i)\\bmy (\\p{L}+)");

    private static boolean readAsName(Form form, Matcher m, Named named) {
        return switch (form.everyday()) {
            case ANY -> true;
            case WITH_NOUN -> m.group("noun") != null;
            case IN_CAPITALS ->
                    named.written().equals(m.group("p"))
                            && named.written().equals(named.written().toUpperCase(Locale.ROOT));
        };
    }

    /** The kind of provider ("gym", "bank", …) {@code name} is, when it is one. */
    static Optional<String> kindOf(String name) {
        Named named = NAMES.get(name.toLowerCase(java.util.Locale.ROOT));
        return named == null ? Optional.empty() : Optional.of(named.kind().name());
    }

    /** The kinds of the providers whose names {@code lower} holds as words. */
    private static Set<Kind> kindsNamed(String lower) {
        Set<Kind> kinds = null;
        for (String w : NOT_WORD.split(lower)) {
            List<String> names = BY_FIRST_WORD.get(w);
            if (names == null) {
                continue;
            }
            for (String name : names) {
                if (containsWord(lower, name)) {
                    if (kinds == null) {
                        kinds = new java.util.HashSet<>();
                    }
                    kinds.add(NAMES.get(name).kind());
                }
            }
        }
        return kinds == null ? Set.of() : kinds;
    }

    /** Whether {@code word} stands in {@code text} as a word of its own ("ee", not "see"). */
    private static boolean containsWord(String text, String word) {
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            int end = at + word.length();
            if ((at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1)))
                    && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) {
                return true;
            }
        }
        return false;
    }

    /** A form that starts with a provider's name ({@code names}) and goes on as {@code after}. */
    private static Pattern startingWith(String names, String after) {
        return Pattern.compile("(?i)\\b" + names + after);
    }
}
