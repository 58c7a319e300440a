package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names chat types in lower case right after a relation or a role: "my brother jamie is coming up",
 * "my cat mochi knocked my coffee over", "my boss gavin wants…". Written with a capital, the
 * readers of relations and roles take them as they take "my brother Jamie". A word is a name there
 * when it is a first name or pet's name of {@code lexicons.txt}, or a word no everyday vocabulary
 * holds ({@link RareWords}), and the words after it go on as they go on after a name: a verb, "is",
 * "and", a possessive, or the end of the clause. "my son just", "my dog loves", "my mum will" stay
 * as they are.
 */
public final class RelationNames {

    private RelationNames() {}

    /** A relation or role after "my"/"our", with the words that qualify it, then a word. */
    private static final Pattern AFTER_RELATION =
            Pattern.compile(
                    "\\b(?i:my|our) (?:(?i:little|lil|big|baby|older|younger|eldest|oldest|youngest|twin|step|lovely|darling|amazing|new) )*(?<rel>(?i:best friend|closest friend|guinea pig|bearded dragon|team lead|personal trainer|[a-z]+(?:-[a-z]+)?)) (?<name>[a-z]+)(?<rest>['’]s\\b|[^\\p{L}'’]*(?<next>[\\p{L}'’]+)?)");

    /** A first name before "is my"/"'s my" and a relation: "chloe's my best friend these days". */
    private static final Pattern BEFORE_RELATION =
            Pattern.compile(
                    "(?<![\\p{L}'’])(?<name>[a-z]+)(?:['’]s| is) (?:now |officially )?(?i:my) (?:(?i:new|current|best|closest) )?(?<rel>(?i:friend|[a-z]+(?:-[a-z]+)?))\\b");

    /** People in the speaker's life, beside relations and single roles, whose names chat types. */
    private static final Set<String> OTHERS =
            Set.of(
                    "friend",
                    "mate",
                    "colleague",
                    "coworker",
                    "co-worker",
                    "neighbour",
                    "neighbor",
                    "ex",
                    "cousin",
                    "bestie");

    /** Words that go on after a name in its clause: its verb, or what qualifies that. */
    private static final Set<String> FOLLOW =
            Set.of(
                    "is",
                    "was",
                    "has",
                    "had",
                    "have",
                    "and",
                    "just",
                    "always",
                    "never",
                    "still",
                    "really",
                    "literally",
                    "finally",
                    "actually",
                    "also",
                    "who",
                    "can",
                    "could",
                    "would",
                    "will",
                    "does",
                    "did",
                    "got",
                    "gets",
                    "kept",
                    "sent",
                    "made",
                    "took",
                    "went",
                    "came",
                    "said",
                    "told",
                    "ate",
                    "bit",
                    "broke",
                    "threw",
                    "won",
                    "ran",
                    "fell",
                    "found",
                    "left",
                    "lost",
                    "met",
                    "paid",
                    "bought",
                    "drove",
                    "gave",
                    "knew",
                    "brought",
                    "taught",
                    "caught",
                    "wrote",
                    "rode",
                    "sat",
                    "slept",
                    "spent",
                    "stole",
                    "woke",
                    "wore",
                    "tore",
                    "swam",
                    "sang",
                    "isnt",
                    "isn't",
                    "wasnt",
                    "wasn't",
                    "hasnt",
                    "hasn't",
                    "doesnt",
                    "doesn't",
                    "didnt",
                    "didn't",
                    "cant",
                    "can't",
                    "wont",
                    "won't",
                    "basically",
                    "apparently",
                    "officially",
                    "recently",
                    "now",
                    "today",
                    "tonight",
                    "yesterday",
                    "thinks",
                    "lives",
                    "works",
                    "turned",
                    "turns",
                    "started",
                    "starts",
                    "keeps",
                    "loves",
                    "hates",
                    "wants",
                    "needs");

    /** Words that are never names, whatever the list says. */
    private static final Set<String> NEVER =
            Set.of("will", "may", "can", "must", "shall", "did", "does", "and", "the");

    /** {@code text} with the lower-case names after a relation or role written with a capital. */
    public static String capitalised(String text) {
        if (!(text.contains("my ") || text.contains("our ") || text.contains("My "))) {
            return text;
        }
        String named =
                withCapitals(
                        AFTER_RELATION.matcher(text),
                        text,
                        m ->
                                person(m.group("rel"))
                                        && name(m.group("name"), m.group("rest"), m.group("next")));
        // "chloe's my best friend": a first name told before the relation.
        return withCapitals(
                BEFORE_RELATION.matcher(named),
                named,
                m -> Lexicons.FIRST_NAMES.contains(m.group("name")) && person(m.group("rel")));
    }

    /** {@code text} with the group "name" of each match that {@code names} takes capitalised. */
    private static String withCapitals(
            Matcher m, String text, java.util.function.Predicate<Matcher> names) {
        StringBuilder out = null;
        int last = 0;
        while (m.find()) {
            if (!names.test(m)) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            int at = m.start("name");
            out.append(text, last, at).append(Character.toUpperCase(text.charAt(at)));
            last = at + 1;
        }
        return out == null ? text : out.append(text, last, text.length()).toString();
    }

    private static boolean person(String rel) {
        String r = rel.toLowerCase(Locale.ROOT);
        if (one(r)) {
            return true;
        }
        // "my little sister": the relation is the last word.
        int space = r.lastIndexOf(' ');
        return space > 0 && one(r.substring(space + 1));
    }

    private static boolean one(String r) {
        boolean plural = r.endsWith("s") && !r.endsWith("ss");
        return !plural && (Lexicons.someone(r) || OTHERS.contains(r));
    }

    private static boolean name(String word, String rest, String next) {
        if (word.length() < 2
                || NEVER.contains(word)
                || Lexicons.NOT_NAMES.contains(word)
                || Lexicons.RELATIONS.contains(word)
                || !(Lexicons.FIRST_NAMES.contains(word)
                        || word.length() > 2 && RareWords.rare(word))) {
            return false;
        }
        if (rest.startsWith("'") || rest.startsWith("’")) {
            // "my brother jamie's car".
            return true;
        }
        if (next == null) {
            // The clause ends after it ("my son leo!").
            return true;
        }
        if (!rest.substring(0, rest.length() - next.length()).isBlank()) {
            // Punctuation between: "my son leo, who …".
            return true;
        }
        String n = next.toLowerCase(Locale.ROOT);
        return FOLLOW.contains(n) || n.length() >= 4 && n.endsWith("ed");
    }
}
