package io.engram.extraction.statements;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Cutting a statement's parts out of a clause, and telling what they say. */
final class Phrases {

    private Phrases() {}

    /** Where a statement's phrase ends: a comma, a subordinate clause, an exclamation. */
    private static final java.util.regex.Pattern STATEMENT_END =
            java.util.regex.Pattern.compile(
                    "(?i)(,(?=\\s)|;|:(?=\\s)|!|\\?|\\((?!\\d{3}\\) ?\\d)| - | – | — |-(?<=\\p{L}-) |\\.\\.\\.| because | since | which | who | whom | that is | so (?!far |much |many |long |well )| but | when i | while | although | though | and it | and that | and i | and we | as well as | lol| haha| like i said| after the | once the | now that | if (?:you|u|ya|anyone) )");

    private static final java.util.regex.Pattern TRAILING_WORDS =
            java.util.regex.Pattern.compile(
                    "(?i)\\s+(ever|so much|a lot|too|as well|right now|these days|lately|anymore|at the moment|for now|now|again|already|instead|though|tbh|honestly|haha|lol|lmao|btw|fyi|rn|ngl|smh|imo|tho|atm|fr|ugh+|sigh|oof|yikes|fml|ffs|jk|omg|yay|woo+|lowkey)$");

    private static final java.util.regex.Pattern TRAILING_STOPS =
            java.util.regex.Pattern.compile("[\\s.!…]+$");

    private static final java.util.regex.Pattern TRAILING_PREPOSITION =
            java.util.regex.Pattern.compile(
                    "(?i)\\s+(about|around|roughly|like|some|for|since|from|at|in|on)$");

    private static final java.util.regex.Pattern SPACES = java.util.regex.Pattern.compile("\\s+");

    /**
     * An article and a word, then a comma and an adjective with its noun: "a safe, inviting place".
     */
    private static final java.util.regex.Pattern COORDINATE =
            java.util.regex.Pattern.compile(
                    "(?i)(\\b(?:a|an|the|my|our|their|some) [a-z]+),(?= [a-z]+(?:ing|ed|ful|ive|ous|al|ic|y|ble|ish|less) (?!(?:up|down|out|in|on|off|with|to|from|for|at|by|of|over|back|around|about|into|through|and|or)\\b)[a-z]+)");

    /**
     * A phrase cut where the statement ends: at a comma, a subordinate clause, an exclamation, a
     * trailing intensifier. Empty when nothing is left or more than {@code maxWords} words are.
     */
    static Optional<String> phrase(String text, int maxWords) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        // "a safe, inviting place": a comma between two adjectives of one noun cuts nothing.
        boolean listed = t.indexOf(',') >= 0 && COORDINATE.matcher(t).find();
        if (listed) {
            t = COORDINATE.matcher(t).replaceAll("$1\u0001");
        }
        t = STATEMENT_END.split(t, 2)[0];
        if (listed) {
            t = t.replace("\u0001", ",");
        }
        t = TRAILING_WORDS.matcher(t).replaceAll("");
        t = TRAILING_STOPS.matcher(t).replaceAll("").strip();
        t = TRAILING_PREPOSITION.matcher(t).replaceAll("").strip();
        if (t.isEmpty()) {
            return Optional.empty();
        }
        int words = SPACES.split(t).length;
        if (words > maxWords) {
            return Optional.empty();
        }
        return Optional.of(t);
    }

    static String cutOut(String text, TimePhrases.Resolved when) {
        int from = Math.max(0, Math.min(when.from(), text.length()));
        int to = Math.max(from, Math.min(when.to(), text.length()));
        return (text.substring(0, from) + " " + text.substring(to)).replaceAll("\\s+", " ").strip();
    }

    /**
     * A changed value without the time it changed at its end: "$2,300 this year", "AT&T last
     * month". A value that is a time ("June 5") stays whole.
     */
    static String withoutTrailingTime(String value, java.time.Instant said) {
        return TimePhrases.first(value, said)
                .filter(t -> t.to() >= value.strip().length() && t.from() > 0)
                .map(t -> cutOut(value, t))
                .filter(v -> !v.isBlank())
                .orElse(value);
    }

    static String article(String role) {
        String r = role.strip();
        if (r.matches("(?i)^(a|an|the) .*") || r.matches("^[A-Z].*")) {
            return r;
        }
        return (r.matches("(?i)^[aeiou].*") ? "an " : "a ") + r;
    }

    /** Whether every content word of the phrase is one that says nothing in particular. */
    static boolean vague(String phrase) {
        List<String> words =
                Arrays.stream(phrase.toLowerCase(Locale.ROOT).split("[^\\p{L}0-9$]+"))
                        .filter(w -> w.length() > 2 && !io.engram.text.Text.STOPWORDS.contains(w))
                        .toList();
        return words.isEmpty() || Lexicons.VAGUE.containsAll(words);
    }

    static String firstWord(String s) {
        return s.strip().split("\\s+")[0].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}0-9'$]", "");
    }

    static String lastWord(String s) {
        String[] w = s.strip().split("\\s+");
        return w[w.length - 1].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}0-9'-]", "");
    }

    static int contentWords(String s) {
        return (int)
                Arrays.stream(s.toLowerCase(Locale.ROOT).split("[^\\p{L}0-9$]+"))
                        .filter(w -> w.length() > 2 && !io.engram.text.Text.STOPWORDS.contains(w))
                        .count();
    }

    /** A lower-case name as chat types it: one to three plain words. */
    private static final java.util.regex.Pattern LOWER_NAME =
            java.util.regex.Pattern.compile("[a-z][a-z.'&-]*(?: [a-z][a-z.'&-]*){0,2}");

    /** Short names written in capitals: "nyc" is NYC, "sf" is SF. */
    private static final java.util.Set<String> INITIALS = java.util.Set.of("nyc", "usa", "uae");

    /**
     * A place or an employer typed in lower case ("chicago", "noe valley", "acme corp"), as it is
     * written: "Chicago", "Noe Valley", "Acme Corp". Empty when a word of it names nothing ("fear",
     * "home", "a big house").
     */
    static Optional<String> lowerName(String phrase) {
        String p = phrase.strip().replaceFirst("[,;:.!?]+$", "");
        if (!LOWER_NAME.matcher(p).matches()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        for (String w : SPACES.split(p)) {
            if (Lexicons.NOT_NAMES.contains(w) || w.length() < 2) {
                return Optional.empty();
            }
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(
                    w.length() == 2 || INITIALS.contains(w)
                            ? w.toUpperCase(Locale.ROOT)
                            : Character.toUpperCase(w.charAt(0)) + w.substring(1));
        }
        return Optional.of(out.toString());
    }
}
