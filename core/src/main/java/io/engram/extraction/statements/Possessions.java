package io.engram.extraction.statements;

import static io.engram.extraction.statements.Phrases.*;
import static io.engram.extraction.statements.StatementPatterns.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person has: people, animals, things and conditions ("I have two cats, Milo and Luna", "I
 * have type 1 diabetes"), things by their name ("I have a Honda Civic" is the car, "Dana drives a
 * Honda Civic."; "I have an iPhone 14" the phone; "I have Netflix"), and what they wear ("I wear
 * glasses").
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

    private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}'-]+");

    /**
     * The names given after "called"/"named", or listed after a comma ("two cats, Milo and Luna"):
     * as names are written, or null. Only a name given as one may be typed in lower case ("a golden
     * retriever called max").
     */
    private static String petNames(String said, String keyword) {
        StringBuilder out = new StringBuilder();
        Matcher word = WORD.matcher(said);
        int last = 0;
        while (word.find()) {
            String w = word.group();
            out.append(said, last, word.start());
            last = word.end();
            if (w.equals("and")) {
                out.append(w);
                continue;
            }
            if (Character.isLowerCase(w.charAt(0))) {
                if (keyword == null
                        || io.engram.text.Text.STOPWORDS.contains(w)
                        || Lexicons.NOT_NAMES.contains(w)
                        || Lexicons.EMPTY_OBJECTS.contains(w)) {
                    return null;
                }
                w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
            }
            out.append(w);
        }
        return out.append(said.substring(last)).toString();
    }

    /**
     * "I have two kids", "we adopted a rescue dog named Biscuit last weekend", "I have type 1
     * diabetes": a person, animal, thing or condition someone has, its name, and for an adoption
     * its time. Anything else after it is another statement: nothing.
     */
    static Optional<Read> had(Renderer r, String verb, String rest, Instant said) {
        String[] words = rest.strip().split("\\s+");
        String first = words[0].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}'-]", "");
        // "I have adhd": a condition needs no article.
        boolean condition = Lexicons.CONDITIONS.contains(first);
        if (words.length == 0
                || !condition
                        && !words[0].toLowerCase(Locale.ROOT)
                                .matches("a|an|one|two|three|four|five|six|seven|\\d+|twin|type")) {
            return Optional.empty();
        }
        int head = condition ? 0 : -1;
        for (int i = 1; head < 0 && i < Math.min(words.length, 5); i++) {
            String w = words[i].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}'-]", "");
            if (Lexicons.RELATIONS.contains(w)
                    || Lexicons.BELONGINGS.contains(w)
                    || Lexicons.CONDITIONS.contains(w)) {
                head = i;
                break;
            }
        }
        if (head < 0) {
            return Optional.empty();
        }
        String obj =
                String.join(" ", java.util.Arrays.copyOfRange(words, 0, head + 1))
                        .replaceAll("[,.!]+$", "");
        String after =
                String.join(" ", java.util.Arrays.copyOfRange(words, head + 1, words.length))
                        .strip();
        String name = null;
        Matcher named = StatementPatterns.NAMED.matcher(after);
        if (named.matches() && (name = petNames(named.group("name"), named.group("kw"))) != null) {
            after = named.group("after") == null ? "" : named.group("after").strip();
        } else if (words[head].endsWith(",") && !verb.equals("got") && !verb.equals("adopted")) {
            // "I have 2 kids, both under 6": what follows a comma is a comment on them ("I got a
            // new bike, finally!" is news, not what one has).
            after = "";
        }
        Optional<TimePhrases.Resolved> time = Optional.empty();
        if (!after.isEmpty()) {
            time = TimePhrases.first(after, said);
            boolean onlyTime =
                    time.isPresent()
                            && after.substring(0, time.get().from()).isBlank()
                            && after.substring(time.get().to()).isBlank();
            if (!onlyTime) {
                return Optional.empty();
            }
        }
        Optional<TimePhrases.Resolved> when = time;
        return possession(r, obj, name, said)
                .map(
                        p ->
                                verb.equals("adopted")
                                        ? new Read(
                                                p.kind(),
                                                p.type(),
                                                p.text().replaceFirst(" has ", " adopted ")
                                                        + when.map(t -> " " + t.text()).orElse(""),
                                                when.map(TimePhrases.Resolved::instant)
                                                        .orElse(said),
                                                p.importance())
                                        : p);
    }

    static Optional<Read> possession(Renderer r, String obj, String name, Instant said) {
        // "a Honda motorcycle": the article in lower case, a make as it was written.
        String[] words = obj.strip().split(" ", 2);
        String o = words[0].toLowerCase(Locale.ROOT) + (words.length > 1 ? " " + words[1] : "");
        String head = lastWord(o).toLowerCase(Locale.ROOT);
        boolean relation = Lexicons.RELATIONS.contains(head);
        if (Lexicons.CONDITIONS.contains(head)) {
            return Optional.of(Read.of("attribute", r.subject() + " has " + o, said, 0.8));
        }
        if (!relation && !Lexicons.BELONGINGS.contains(head)) {
            return Optional.empty();
        }
        String text = r.subject() + " has " + o + (name == null ? "" : " named " + name);
        return Optional.of(
                new Read(
                        relation ? "relationship" : "attribute",
                        relation ? MemoryType.SOCIAL : MemoryType.SEMANTIC,
                        text,
                        said,
                        0.7));
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
