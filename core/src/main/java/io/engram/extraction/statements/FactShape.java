package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a fact's words must look like: a statement, in the third person, about the person it names
 * first. Anything else is malformed — a question, an imperative, a greeting, second or first
 * person, a pronoun or a filler word as the subject, "and others". Extraction drops a malformed
 * fact; the tests read every fact of a corpus through it.
 */
public final class FactShape {

    private static final Pattern SECOND_PERSON =
            Pattern.compile("(?i)\\b(you|your|yours|yourself|yourselves|ya|u|ur)\\b");
    private static final Pattern FIRST_PERSON =
            Pattern.compile(
                    "(?i)\\b(i|me|my|mine|myself|we|us|our|ours|ourselves|i'm|i've|i'll|i'd)\\b");

    /** An email or web address, whose words are no person. */
    private static final Pattern ADDRESS = Pattern.compile("\\S+@\\S+\\.\\w+|https?://\\S+");

    private static final Pattern GREETING =
            Pattern.compile(
                    "(?i)^(hi|hey|hello|thanks|thank you|bye|goodbye|good morning|good night|congrats|congratulations|welcome|sorry|cheers|wow|yay|lol|haha)\\b");
    private static final Set<String> NOT_SUBJECTS =
            Set.of(
                    "that",
                    "that's",
                    "those",
                    "these",
                    "this",
                    "it",
                    "it's",
                    "he",
                    "she",
                    "they",
                    "there",
                    "here",
                    "what",
                    "which",
                    "who",
                    "when",
                    "where",
                    "why",
                    "how",
                    "one",
                    "someone",
                    "everyone",
                    "nobody",
                    "somebody",
                    "everybody",
                    "all",
                    "both",
                    "so",
                    "since",
                    "because",
                    "and",
                    "but",
                    "or",
                    "if",
                    "then",
                    "just",
                    "also",
                    "user",
                    "assistant",
                    "bye",
                    "believe",
                    "nice",
                    "thanks",
                    "blue",
                    "please",
                    "let",
                    "let's",
                    "make",
                    "do",
                    "don't",
                    "try",
                    "keep",
                    "remember",
                    "go",
                    "have",
                    "be",
                    "stay");
    private static final Pattern IMPERATIVE =
            Pattern.compile(
                    "(?i)^(please|let's|let us|don't|do not|remember|try|make sure|keep|go|take|call|remind|tell|give|check|stay|believe|be)\\b");

    /**
     * Words a statement cut short ends on ("passionate about creating a safe", "planning a few",
     * "make this"), and the words before a "them" that leave it whole ("coming with them", where
     * "likes holding them" is cut short) or before a "one" ("number one").
     */
    private static final Set<String> DANGLING =
            Set.of(
                    "a", "an", "the", "their", "his", "its", "this", "these", "those", "another",
                    "few", "couple", "bunch", "several", "of", "with", "to", "for", "about", "from",
                    "by", "into", "at", "than", "and", "or", "but", "very", "it", "that");

    private static final Set<String> BEFORE_THEM =
            Set.of(
                    "with", "to", "for", "of", "from", "about", "at", "by", "on", "in", "near",
                    "without", "behind", "like");

    private static final Set<String> BEFORE_ONE =
            Set.of("number", "no.", "turn", "turned", "age", "aged");

    /** Whether the fact ends on a word that needs more after it. */
    private static boolean cutShort(String f) {
        int end = f.length() - 1;
        int space = f.lastIndexOf(' ', end);
        if (space < 0 || f.charAt(space + 1) == '/' || f.charAt(space) == '/') {
            return false;
        }
        String last = f.substring(space + 1, end).toLowerCase(Locale.ROOT);
        if (last.indexOf('/') >= 0) {
            return false;
        }
        if (DANGLING.contains(last)) {
            return true;
        }
        if (!last.equals("them") && !last.equals("one")) {
            return false;
        }
        int before = f.lastIndexOf(' ', space - 1);
        String prev = f.substring(before + 1, space).toLowerCase(Locale.ROOT);
        return !(last.equals("them") ? BEFORE_THEM : BEFORE_ONE).contains(prev);
    }

    /** A preposition whose object is missing: "has been working on for a while". */
    private static final Pattern MISSING_OBJECT =
            Pattern.compile("(?i)\\b(?:on|about|with|into|at|to|of) (?:for|since) ");

    /** How one is doing, said in passing: "is doing alright", "is doing their part". */
    private static final Pattern HOW_ONE_IS =
            Pattern.compile(
                    "(?i)\\b(?:is|are) doing (?:alright|all right|ok|okay|well|good|great|fine|fantastic|awesome|amazing|better|much better|pretty (?:good|well)|their (?:part|best|thing))\\.$");

    /**
     * A word pointing at someone or somewhere the fact does not name: the speaker's own words are
     * written "their", so a "his", "her", "he", "she" or "they" is a third person's, and "here" is
     * where they spoke.
     */
    private static final Pattern POINTER =
            Pattern.compile(
                    "(?<!/)\\b(?:his|her|hers|him|he|she|they|here|there(?! (?:is|are|was|were)\\b))\\b(?!/)");

    /** Someone a "his" or "her" may point back at: a name, or a relative, friend or pet. */
    private static final Pattern SOMEONE =
            Pattern.compile(
                    "\\b[A-Z][\\p{L}'-]+|\\b(?:friend|friends|boss|coach|teacher|colleague|coworker|neighbor|neighbour|manager|man|woman|guy|girl|boy|player|author|artist|writer|family|team|colleagues|coworkers|people|guys|girls|boys)\\b");

    private FactShape() {}

    /**
     * Why a fact read from what someone said does not stand on its own, or empty: a bracketed
     * aside, or a word pointing at someone or somewhere it does not name. Only for speech: a memory
     * written through the API says "her roof" of its own subject.
     */
    public static Optional<String> unanchored(String fact) {
        if (fact.indexOf('[') >= 0 || fact.indexOf(']') >= 0) {
            return Optional.of("a bracketed aside");
        }
        if (pointsAtNoOne(fact)) {
            return Optional.of("points at someone it does not name");
        }
        return Optional.empty();
    }

    /** Whether a "his", "her" or "here" in the fact has nothing before it to point at. */
    private static boolean pointsAtNoOne(String f) {
        var m = POINTER.matcher(f);
        if (!m.find()) {
            return false;
        }
        if (m.group().equals("there") || m.group().equals("here")) {
            return true;
        }
        String before = f.substring(0, m.start());
        int space = before.indexOf(' ');
        String after = space < 0 ? "" : before.substring(space + 1);
        if (SOMEONE.matcher(after).find()) {
            return false;
        }
        for (String w : after.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
            if (Lexicons.RELATIONS.contains(w)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Why the fact is malformed, or empty when it is a well-formed statement about {@code subject}.
     */
    public static Optional<String> problem(String fact, String subject) {
        String f = fact.strip();
        if (f.length() < 8 || f.length() > 400) {
            return Optional.of("length");
        }
        if (!f.endsWith(".")) {
            return Optional.of("not a closed statement");
        }
        if (f.contains("?")) {
            return Optional.of("question");
        }
        // Tried from the end, or only where its words are: every fact passes through here.
        if (cutShort(f)
                || (f.contains(" for ") || f.contains(" since "))
                        && MISSING_OBJECT.matcher(f).find()) {
            return Optional.of("cut short");
        }
        if (f.contains(" doing ") && HOW_ONE_IS.matcher(f).find()) {
            return Optional.of("how one is doing");
        }
        if (GREETING.matcher(f).find()) {
            return Optional.of("greeting or acknowledgement");
        }
        if (IMPERATIVE.matcher(f).find()) {
            return Optional.of("imperative");
        }
        // "me@old.org" is an address, not the speaker.
        String words =
                f.indexOf('@') >= 0 || f.contains("://") ? ADDRESS.matcher(f).replaceAll(" ") : f;
        if (SECOND_PERSON.matcher(words).find()) {
            return Optional.of("second person");
        }
        if (FIRST_PERSON.matcher(words).find()) {
            return Optional.of("first person");
        }
        if (f.toLowerCase(Locale.ROOT).contains("and others")) {
            return Optional.of("'and others'");
        }
        String first =
                f.split("[\\s']", 2)[0].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}0-9']", "");
        if (NOT_SUBJECTS.contains(first) && !f.startsWith("The user")) {
            return Optional.of("not a name as subject: " + first);
        }
        if (subject != null && !f.startsWith(subject)) {
            return Optional.of("does not start with its subject " + subject);
        }
        return Optional.empty();
    }
}
