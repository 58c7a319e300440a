package io.engram.extraction.statements;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement said of the time after its value was left ("Dana no longer works at Salesforce."),
 * and the value read back from such a statement, which is what the old one's other records quote.
 */
public final class NoLonger {

    private NoLonger() {}

    /**
     * {@code content} ("Dana works at Salesforce.", "Dana's bank is Barclays."), a statement of
     * {@code subject}'s, said of the time after a leaving: "Dana no longer works at Salesforce.",
     * "Dana's bank is no longer Barclays."
     */
    static Optional<String> of(String subject, String content) {
        String c = content.strip().replaceFirst("[.!]+$", "");
        if (!c.startsWith(subject + " ") && !c.startsWith(subject + "'s ")) {
            return Optional.empty();
        }
        Matcher copula = Pattern.compile(" (is|are|was) (?!no longer )").matcher(c);
        if (c.startsWith(subject + "'s ")) {
            if (copula.find()) {
                return Optional.of(
                        c.substring(0, copula.end())
                                + "no longer "
                                + c.substring(copula.end())
                                + ".");
            }
            // "Dana's son goes to Hillside Primary.": the relative's verb, said no longer.
            Matcher verb = OWN_VERB.matcher(c.substring(subject.length() + 3));
            return verb.find()
                    ? Optional.of(
                            c.substring(0, subject.length() + 3 + verb.start(2))
                                    + "no longer "
                                    + c.substring(subject.length() + 3 + verb.start(2))
                                    + ".")
                    : Optional.empty();
        }
        String rest = c.substring(subject.length() + 1);
        if (rest.startsWith("is ") || rest.startsWith("are ")) {
            int sp = rest.indexOf(' ');
            return Optional.of(
                    subject
                            + " "
                            + rest.substring(0, sp)
                            + " no longer"
                            + rest.substring(sp)
                            + ".");
        }
        return Optional.of(subject + " no longer " + rest + ".");
    }

    /** The verb after a possessive subject of one to three words: "son Leo goes to". */
    private static final Pattern OWN_VERB =
            Pattern.compile("^((?:[\\p{L}'-]+ ){1,3}?)((?!is |was |has )[a-z]+s) ");

    /** Words between a statement's verb and the value it names: "goes to", "is learning". */
    private static final Set<String> LEAD =
            Set.of("is", "are", "to", "at", "with", "in", "on", "for", "from", "the", "a", "an");

    /**
     * The value {@code old} ("Dana goes to Planet Fitness.") named, when {@code current} is its
     * negation ("Dana no longer goes to Planet Fitness."): "Planet Fitness". For a statement no key
     * is read from, this is what its other records quote.
     */
    public static Optional<String> leftValue(String old, String current) {
        String c = current.strip().replaceFirst("[.!]+$", "");
        int no = c.indexOf(" no longer ");
        if (no <= 0) {
            return Optional.empty();
        }
        String subject = c.substring(0, no);
        String o = old.strip().replaceFirst("[.!]+$", "");
        if (!o.startsWith(subject + " ")
                || !o.substring(subject.length() + 1)
                        .equals(c.substring(no + " no longer ".length()))) {
            return Optional.empty();
        }
        String[] words = o.substring(subject.length() + 1).split(" ");
        int k = 1;
        while (k < words.length - 1
                && (LEAD.contains(words[k].toLowerCase(Locale.ROOT)) || words[k].endsWith("ing"))) {
            k++;
        }
        String value = String.join(" ", Arrays.copyOfRange(words, k, words.length));
        return value.length() < 3 ? Optional.empty() : Optional.of(value);
    }
}
