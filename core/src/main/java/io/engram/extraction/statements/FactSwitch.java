package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "Dana switched from Intel to AMD": a new value named with the old one it replaces, of whatever
 * the old value is stored as ("Dana works at Intel" becomes "Dana works at AMD").
 */
public record FactSwitch(String subject, String from, String to) {

    private static final Pattern SWITCHED_FROM =
            Pattern.compile(
                    "^(?<s>[^ '’]+(?: [^ '’]+)?) switched from (?<from>.+?) to (?<to>.+?)\\.?$");

    /** The switch a fact states, if it has that shape. */
    public static Optional<FactSwitch> of(String content) {
        Matcher m = SWITCHED_FROM.matcher(content.strip());
        return m.matches()
                ? Optional.of(new FactSwitch(m.group("s"), m.group("from"), m.group("to")))
                : Optional.empty();
    }

    /** Whether {@code key} gives the value this switch names as the old one. */
    public boolean replaces(FactKey key) {
        // "the Mini" names "a Mini Cooper": the old value said with its first words.
        String held = unowned(key.value());
        String old = unowned(from);
        String heldLower = held.toLowerCase(java.util.Locale.ROOT);
        String oldLower = old.toLowerCase(java.util.Locale.ROOT);
        // "the Civic" names "a Honda Civic" too: a model said without its make, when a name.
        boolean model =
                !old.isEmpty()
                        && (Character.isUpperCase(old.charAt(0))
                                // "the civic" typed in lower case, for the name "a Honda Civic".
                                || ValueHint.kindOf(key.value()) == ValueHint.Kind.NAME)
                        && heldLower.endsWith(" " + oldLower);
        return key.subject().equalsIgnoreCase(subject)
                && (bare(key.value()).equals(bare(from))
                        || heldLower.startsWith(oldLower + " ")
                        || model);
    }

    /**
     * The sentence of a memory that says the old value last, with the new one in its place ("Dana
     * plays guitar." → "Dana plays the drums."), when it is about this subject in a few words.
     */
    public Optional<String> rewrite(String content) {
        String c = content.strip().replaceFirst("\\.$", "");
        if (!c.startsWith(subject + " ")) {
            return Optional.empty();
        }
        // "my Chase account" names the Chase a memory tells of.
        String old = unowned(from).replaceFirst(ACCOUNT, "");
        Matcher m =
                Pattern.compile(
                                "(?i)^("
                                        + Pattern.quote(subject)
                                        + "(?: [\\p{L}'’-]+){1,6} )(?:(?:a|an|the|their) )?("
                                        + Pattern.quote(old)
                                        // "… Spanish on Duolingo", "… tennis every Saturday":
                                        // where and when the old one was done need not hold
                                        // for the new one.
                                        + ")(?: (?:on|at|with|in|for|through|via|every|each|twice|once|most) [^.]{1,40})?")
                        .matcher(c);
        if (!m.matches()) {
            return Optional.empty();
        }
        // "spanish to japanese" told in lower case, "Spanish" stored: written as the old one is.
        String value =
                Character.isUpperCase(m.group(2).charAt(0))
                                && to.equals(to.toLowerCase(Locale.ROOT))
                        ? TypedValues.name(to).orElse(to)
                        : to;
        // "Dana plays the piano." and "the cello": one article.
        if (m.group(1).matches("(?i).* (?:a|an|the|their) $")) {
            value = unowned(value);
        }
        return Optional.of(m.group(1) + value + ".");
    }

    /** What follows a provider's name to say what one had with it. */
    private static final String ACCOUNT =
            "(?i) (?:membership|subscription|account|accounts|plan|card|contract|policy)$";

    /** A value without its article or owner: "the BMW" is "a BMW". */
    private static String bare(String v) {
        // "their 24 Hour Fitness membership" is the gym's name.
        return FactKey.normal(unowned(v).replaceFirst(ACCOUNT, ""));
    }

    /** A value without its article or owner: "the BMW", "my BMW" are "BMW". */
    private static String unowned(String v) {
        return v.replaceFirst("(?i)^(?:a|an|the|my|our|their) ", "");
    }
}
