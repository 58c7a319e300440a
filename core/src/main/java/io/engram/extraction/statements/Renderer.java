package io.engram.extraction.statements;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Writes a statement about a person in the third person: names, possessives, pronouns. */
final class Renderer {

    private static final Pattern FIRST_PERSON_OBJECTS =
            // Whole words only: "me-time" or "us-based" are not the speaker.
            Pattern.compile(
                    "(?i)(?<![\\w@.-])(my|our|me|us|mine|ours|myself|ourselves)(?![\\w-]|[@.]\\w)");

    private final String subject;
    private final String speaker;
    private final String companion;

    /** {@code name}: the speaker's display name, or null when the user is not named. */
    Renderer(String name) {
        this.speaker = name == null || name.isBlank() ? "The user" : name.strip();
        this.subject = speaker;
        this.companion = null;
    }

    private Renderer(String speaker, String companion) {
        this.speaker = speaker;
        this.companion = companion;
        this.subject = speaker + " and " + companion;
    }

    /** The speaker together with a companion ("Noah and Sara"), as one subject. */
    Renderer with(String companion) {
        return new Renderer(speaker, companion);
    }

    /** The renderer of the speaker alone. */
    Renderer alone() {
        return companion == null ? this : new Renderer(speaker);
    }

    /** The speaker alone, companion or not. */
    String speaker() {
        return speaker;
    }

    /** The companion of "Sara and I …", or null. */
    String companion() {
        return companion;
    }

    String subject() {
        return subject;
    }

    String possessive() {
        return subject + "'s";
    }

    /**
     * A phrase of the speaker's with its first-person words made third person ("my kids" → "their
     * kids"): a name for the speaker's own things would read oddly, and no pronoun guesses a
     * gender.
     */
    String thirdPerson(String phrase) {
        var m = FIRST_PERSON_OBJECTS.matcher(phrase);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String w = m.group(1).toLowerCase(java.util.Locale.ROOT);
            String r =
                    switch (w) {
                        case "my", "our" -> "their";
                        case "me", "us" -> "them";
                        case "mine", "ours" -> "theirs";
                        default -> "themselves";
                    };
            m.appendReplacement(out, r);
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A sentence: subject and the rest, capitalised and closed with a full stop. */
    String sentence(String text) {
        String t = text.strip().replaceAll("\\s+", " ").replaceAll("\\s+([,.;:])", "$1");
        t = t.replaceAll("[\\s,;:.!]+$", "");
        // A title cut at its own full stop ('called "Finding Home.') gets its closing quote.
        if (t.chars().filter(ch -> ch == '"').count() % 2 == 1) {
            t = t + '"';
        }
        return Character.toUpperCase(t.charAt(0)) + t.substring(1) + ".";
    }

    /** "… and train every day" after "practices": the second verb in the third person too. */
    static String coordinated(String obj) {
        Matcher v = AND_VERB.matcher(obj);
        if (!v.lookingAt()) {
            return obj;
        }
        String w = v.group(2);
        String third =
                w.matches(".*(?:s|sh|ch|x|z|o)")
                        ? w + "es"
                        : w.matches(".*[^aeiou]y")
                                ? w.substring(0, w.length() - 1) + "ies"
                                : w + "s";
        return v.group(1) + third + obj.substring(v.end());
    }

    private static final Pattern AND_VERB =
            Pattern.compile(
                    "((?:and|or) )(?!(?:a|an|the|my|our|their|his|her|its|to|with|in|on|at|for|of|from|all|more|most|other|some|many|every|each|this|that|these|those)\\b)([a-z]+)(?= )");
}
