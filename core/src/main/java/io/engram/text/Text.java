package io.engram.text;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small text operations shared by extraction, dedup and the query side. */
public final class Text {

    private static final Pattern SENTENCE_END =
            Pattern.compile(
                    // Not after a title ("Dr. Lee", "Mt. Rainier"): the name goes on. The cheap
                    // end-mark test comes first, so the titles are only tried after a full stop.
                    // Chat starts sentences in lower case too: after "!" or "?", or after a full
                    // stop that ends a word of three letters or more ("moved out. new roommate") or
                    // a number ("555-0199. the old one's gone").
                    "(?<=[.!?])(?<!\\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Mt|Jr|Sr|Capt|Lt|Sgt|Rev|vs)\\.)"
                            + "[\"')\\]]*\\s+(?=[\"'(\\[]?[A-Z0-9]|(?<=[!?]\\s)[a-z]|(?<=(?<!\\b(?:etc|approx|incl|min|max|est|dept|feat))[a-z]{3}\\.\\s)[a-z]|(?<=[0-9]{2}\\.\\s)[a-z])|\\n+");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*");

    /**
     * Words that carry no topic: never used to judge whether two texts talk about the same thing.
     */
    public static final Set<String> STOPWORDS =
            Set.of(
                    "a",
                    "an",
                    "the",
                    "and",
                    "or",
                    "but",
                    "if",
                    "then",
                    "so",
                    "of",
                    "to",
                    "in",
                    "on",
                    "at",
                    "for",
                    "with",
                    "by",
                    "from",
                    "as",
                    "is",
                    "are",
                    "was",
                    "were",
                    "be",
                    "been",
                    "being",
                    "am",
                    "do",
                    "does",
                    "did",
                    "have",
                    "has",
                    "had",
                    "it",
                    "its",
                    "it's",
                    "this",
                    "that",
                    "these",
                    "those",
                    "there",
                    "here",
                    "i",
                    "me",
                    "my",
                    "mine",
                    "myself",
                    "we",
                    "us",
                    "our",
                    "you",
                    "your",
                    "yours",
                    "he",
                    "him",
                    "his",
                    "she",
                    "her",
                    "hers",
                    "they",
                    "them",
                    "their",
                    "what",
                    "which",
                    "who",
                    "whom",
                    "whose",
                    "when",
                    "where",
                    "why",
                    "how",
                    "all",
                    "any",
                    "some",
                    "no",
                    "not",
                    "can",
                    "could",
                    "will",
                    "would",
                    "should",
                    "shall",
                    "may",
                    "might",
                    "must",
                    "just",
                    "very",
                    "really",
                    "also",
                    "too",
                    "about",
                    "into",
                    "up",
                    "out",
                    "over",
                    "than",
                    "now",
                    "actually",
                    "currently",
                    "new",
                    "updated",
                    "instead",
                    "anymore",
                    "still",
                    "again",
                    "already",
                    "i'm",
                    "i've",
                    "i'll",
                    "i'd",
                    "im",
                    "ive",
                    "s",
                    "t",
                    "make",
                    "made",
                    "get",
                    "got",
                    "one",
                    "yes",
                    "yeah",
                    "oh",
                    "well",
                    "like",
                    "gonna",
                    "wanna",
                    "lot",
                    "much",
                    "many",
                    "more",
                    "most",
                    "every",
                    "each",
                    "own");

    private Text() {}

    /** Sentences of a text, trimmed, without empties. */
    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE_END.split(text.trim())) {
            String t = s.trim();
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Whether {@code text} holds any of {@code parts}: a cheap test before a pattern. */
    public static boolean containsAny(String text, String[] parts) {
        for (String part : parts) {
            if (text.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /** {@code text} cut to at most {@code max} characters, not inside a surrogate pair. */
    public static String clip(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "…";
    }

    /** Lower-case words (letters and digits, inner apostrophes and hyphens kept). */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT).replace('’', '\''));
        }
        return out;
    }

    /**
     * The text without its stopwords, words as written (for a full-text query: "when", "did" and
     * "what" match most of a conversation and say nothing of the topic). The text itself when
     * nothing else is left.
     */
    public static String keywords(String text) {
        StringBuilder out = new StringBuilder();
        for (String w : words(text)) {
            if (!STOPWORDS.contains(w) && !STOPWORDS.contains(fold(w))) {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(w);
            }
        }
        return out.length() == 0 ? text : out.toString();
    }

    /** The topic words of a text: no stopwords, simple plural/possessive folding. */
    public static Set<String> contentWords(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : words(text)) {
            String base = fold(w);
            if (!base.isEmpty() && !STOPWORDS.contains(base) && !STOPWORDS.contains(w)) {
                out.add(base);
            }
        }
        return out;
    }

    /** Crude stem: possessive and plural endings removed so "trips" and "trip's" meet "trip". */
    public static String fold(String word) {
        String w = word;
        if (w.endsWith("'s")) {
            w = w.substring(0, w.length() - 2);
        }
        if (w.endsWith("'")) {
            w = w.substring(0, w.length() - 1);
        }
        if (w.length() > 4 && w.endsWith("ies")) {
            w = w.substring(0, w.length() - 3) + "y";
        } else if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            w = w.substring(0, w.length() - 1);
        }
        return w;
    }

    /** Normal form for exact-duplicate checks: accents, case, punctuation and spacing removed. */
    public static String normalizeForHash(String text) {
        String decomposed =
                Normalizer.normalize(text, Normalizer.Form.NFKD).replaceAll("\\p{M}", "");
        return String.join(" ", words(decomposed));
    }

    /** |a ∩ b| / |a ∪ b|, 0 for two empty sets. */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        int inter = 0;
        for (String x : a) {
            if (b.contains(x)) {
                inter++;
            }
        }
        return (double) inter / (a.size() + b.size() - inter);
    }

    /** Share of the smaller set found in the larger one. */
    public static double containment(Set<String> a, Set<String> b) {
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        if (small.isEmpty()) {
            return 0;
        }
        int inter = 0;
        for (String x : small) {
            if (large.contains(x)) {
                inter++;
            }
        }
        return (double) inter / small.size();
    }

    /** A rough token count for prompt budgets: about four characters a token. */
    public static int estimateTokens(String text) {
        return Math.max(1, (text.length() + 3) / 4);
    }
}
