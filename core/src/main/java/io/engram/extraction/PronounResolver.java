package io.engram.extraction;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites first-person statements in the speaker's name ("My budget is" → "Alice's budget is")
 * and, when the listener is known, second-person ones ("your dog" → "Bob's dog"), so a fact stands
 * on its own.
 */
final class PronounResolver {

    private record Rule(Pattern pattern, String replacement) {}

    private static final Rule[] FIRST_PERSON = {
        rule("\\bI\\s+am\\b|\\bI'm\\b|\\bI’m\\b|\\bIm\\b", "%s is"),
        rule("\\bI\\s+have\\b|\\bI've\\b|\\bI’ve\\b", "%s has"),
        rule("\\bI\\s+was\\b", "%s was"),
        rule("\\bI'll\\b|\\bI’ll\\b", "%s will"),
        rule("\\bI'd\\b|\\bI’d\\b", "%s would"),
        rule("\\bI\\s+do\\b", "%s does"),
        rule("\\bI\\b", "%s"),
        rule("(?i)\\bmyself\\b", "%s"),
        rule("(?i)\\bmy\\b", "%s's"),
        rule("(?i)\\bmine\\b", "%s's"),
        rule("(?i)\\bme\\b", "%s"),
        rule("(?i)\\bwe\\s+are\\b|\\bwe're\\b|\\bwe’re\\b", "%s and others are"),
        rule("(?i)\\bwe've\\b|\\bwe’ve\\b", "%s and others have"),
        rule("(?i)\\bwe\\b", "%s and others"),
        rule("(?i)\\bour\\b", "%s's"),
        rule("(?i)\\bours\\b", "%s's"),
    };

    private static final Rule[] SECOND_PERSON = {
        rule("(?i)\\byou\\s+are\\b|\\byou're\\b|\\byou’re\\b", "%s is"),
        rule("(?i)\\byou've\\b|\\byou’ve\\b", "%s has"),
        rule("(?i)\\byour\\b", "%s's"),
        rule("(?i)\\byours\\b", "%s's"),
        rule("(?i)\\byou\\b", "%s"),
    };

    private PronounResolver() {}

    private static Rule rule(String regex, String replacement) {
        return new Rule(Pattern.compile(regex), replacement);
    }

    static String resolve(String sentence, String speaker, String listener) {
        String out = apply(sentence, FIRST_PERSON, speaker);
        if (listener != null) {
            out = apply(out, SECOND_PERSON, listener);
        }
        return out;
    }

    static boolean hasFirstPerson(String sentence) {
        for (Rule r : FIRST_PERSON) {
            if (r.pattern().matcher(sentence).find()) {
                return true;
            }
        }
        return false;
    }

    private static String apply(String text, Rule[] rules, String name) {
        String out = text;
        for (Rule r : rules) {
            Matcher m = r.pattern().matcher(out);
            out = m.replaceAll(Matcher.quoteReplacement(String.format(r.replacement(), name)));
        }
        return out.replace(name + "'s's", name + "'s");
    }
}
