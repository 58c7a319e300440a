package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Things a person has by their name, and what they wear: "I have a Honda Civic" (the car, "Dana
 * drives a Honda Civic."), "I have an iPhone 14" (the phone), "I have Netflix" ("Dana has
 * Netflix."), "I wear glasses".
 */
final class Possessions {

    private Possessions() {}

    /** A name, its model number, and a word of what one has with it ("subscription"). */
    private static final Pattern NAMED =
            Pattern.compile(
                    "^(?<article>(?:an?|the|my) )?(?<name>(?-i:[a-z]?[A-Z][\\p{L}&'+-]*)(?: (?-i:[A-Z][\\p{L}&'+-]*)){0,2}(?: (?-i:[A-Z]?\\d{1,4}[A-Za-z]?|[A-Z]|Pro|Max|Plus|Mini))*)(?<what> (?:subscription|membership|account|plan))?(?: now| too| as well)?[.!]*$");

    /** Makes of cars: a car by its name alone is one of these. */
    private static final java.util.Set<String> MAKES = Lexicons.list("car_makes");

    /** Names of phones. */
    private static final Pattern PHONE =
            Pattern.compile("^(?:iPhone|Pixel|Galaxy|OnePlus|Moto|Motorola|Nokia|Xiaomi)\\b");

    /** "I have a Honda Civic", "I own a Tesla", "I have Netflix": what it is, in its words. */
    static Optional<Read> named(Renderer r, String verb, String rest, Instant said) {
        if (!verb.equals("have") && !verb.equals("own") && !verb.equals("have got")) {
            return Optional.empty();
        }
        Matcher m = NAMED.matcher(rest.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        String name = m.group("name");
        String first = name.split(" ")[0];
        if (ValueHint.NOT_NAMES.contains(first) || Lexicons.NOT_NAMES.contains(lower(first))) {
            return Optional.empty();
        }
        String article = m.group("article") == null ? "" : lower(m.group("article"));
        String a = name.matches("(?i)^[aeiou].*") ? "an " : "a ";
        if (MAKES.contains(lower(first)) && m.group("what") == null) {
            return Optional.of(
                    Read.of("attribute", r.subject() + " drives " + a + name, said, 0.7));
        }
        if (PHONE.matcher(name).find() && m.group("what") == null) {
            return Optional.of(
                    Read.of("attribute", r.possessive() + " phone is " + a + name, said, 0.7));
        }
        String what = m.group("what") == null ? "" : m.group("what");
        String with = what.isEmpty() && !article.startsWith("a") ? "" : a;
        return Optional.of(
                Read.of("attribute", r.subject() + " has " + with + name + what, said, 0.6));
    }

    /** "I wear glasses", "I wear contacts": what one wears every day. */
    private static final Pattern WORN =
            Pattern.compile(
                    "(?i)^I (?:wear|have to wear) (?<what>glasses|contacts|contact lenses|braces|a retainer|hearing aids|a hearing aid)(?: (?:now|every day|daily|all the time))?(?:[.!]*$|, .*$)");

    static Optional<Read> worn(Renderer r, String clause, Instant said) {
        Matcher m = WORN.matcher(clause);
        return m.matches()
                ? Optional.of(
                        Read.of(
                                "attribute",
                                r.subject() + " wears " + lower(m.group("what")),
                                said,
                                0.6))
                : Optional.empty();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
