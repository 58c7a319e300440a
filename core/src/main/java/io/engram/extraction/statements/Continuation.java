package io.engram.extraction.statements;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Chat tells one piece of news in bursts: "quit crumbs today!! starting at Hollow Oak Coffee on
 * monday", "got promoted!! senior analyst as of today". The second sentence goes on with the
 * speaker's news, its subject left out: read together, the first tells what changed and the second
 * the new value. A second sentence with a subject of its own ("my sister …", "Priya got …", "he …")
 * tells other news; "it" is the news's own thing ("new number!! it's 555-0199").
 */
public final class Continuation {

    private Continuation() {}

    /** Between a hint's content and the sentence that goes on with it. */
    public static final char TAIL = '\u241E';

    /** A hint's content, with the sentence that goes on with its own. */
    public static String content(ValueHint hint, String next) {
        return hint.content() + TAIL + next;
    }

    /** The longest first sentence read as a burst. */
    static final int MAX_WORDS = 8;

    private static final Pattern OWN_SUBJECT =
            Pattern.compile(
                    "(?i)^(?:(?:my|our|his|her|their|the) (?:"
                            + ValueHint.OTHER
                            + ")\\b|(?:he|she|they|there|these|those|his|her|their|you|u|ur|your)\\b)"
                            + "|^(?-i:[A-Z][\\p{L}'-]+)(?: (?-i:[A-Z][\\p{L}'-]+))? (?:and (?:he|she|i)\\b|(?:is|was|has|had|got|just|moved|started|works|left|quit|says|said|went)\\b)");

    /** A second sentence that supposes, plans or wishes: no new value of now. */
    private static final Pattern UNSURE =
            Pattern.compile(
                    "(?i)\\b(?:might|maybe|thinking|think|hope|hoping|want|wants|wanna|would|could|should|if|plan|plans|planning|considering|interview|interviewing|applied|applying|gonna|going to|will|\\w+'ll|\\w+’ll|idk|not sure)\\b");

    /**
     * The burst and the sentence after it as one, when the second goes on with the first and the
     * first tells of a change ({@code hint}: it gives a hint alone; else by its words).
     */
    public static Optional<String> of(String burst, String next, boolean hint) {
        String b = burst.strip();
        String n = next.strip();
        if (b.isEmpty()
                || n.isEmpty()
                || b.endsWith("?")
                || n.endsWith("?")
                || words(b) > MAX_WORDS
                || !hint && !ChangeWords.mayTell(b)
                || OWN_SUBJECT.matcher(Clauses.stripOpeners(n)).find()
                || UNSURE.matcher(n).find()) {
            return Optional.empty();
        }
        return Optional.of(b + " " + n);
    }

    /** Whether {@code sentence} tells someone else's news: "my partner got a raise!!". */
    public static boolean othersNews(String sentence) {
        return OWN_SUBJECT.matcher(Clauses.stripOpeners(sentence.strip())).find();
    }

    private static int words(String s) {
        int n = 0;
        boolean in = false;
        for (int i = 0; i < s.length(); i++) {
            boolean letter = !Character.isWhitespace(s.charAt(i));
            if (letter && !in) {
                n++;
            }
            in = letter;
        }
        return n;
    }
}
