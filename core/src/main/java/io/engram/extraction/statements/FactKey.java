package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a fact gives the value of — a subject and an attribute ("Alice", "budget for the Hawaii
 * trip") — and the value. Two current facts with the same key and different values cannot both be
 * true: the newer supersedes the older. Facts written by {@link StatementExtractor} have one of a
 * few sentence shapes, so the key is read back from the words of any memory of that shape, whoever
 * wrote it.
 */
public record FactKey(String subject, String attribute, String value) {

    public FactKey {
        subject = subject.strip();
        attribute = attribute.strip();
        value = value.strip();
    }

    private static final Pattern UNIT =
            Pattern.compile(
                    "\\d[\\d.,]* ?(pounds|lbs|kg|kilos|kilograms|miles|km|hours|cm|inches)");

    /** The value of an attribute that has none now ("Dana no longer works at Acme"). */
    public static final String NONE = "(none)";

    /** The key of a fact's words, when they have one of the shapes that give a value. */
    public static Optional<FactKey> of(String content) {
        return KeyReader.read(content);
    }

    /**
     * Whether {@code other} is about the same thing: same subject, and the same attribute or one
     * that says less of it ("budget" and "budget for the Hawaii trip"; "favorite color" and
     * "color"), never one of another's ("name" and "sister's name").
     */
    public boolean sameThingAs(FactKey other) {
        if (!subject.equalsIgnoreCase(other.subject)) {
            return false;
        }
        // "dog's name" and "dog": a pet's or a person's name is what "Dana's dog is Max" gives.
        AttributePhrase a = AttributePhrase.of(attribute.replaceFirst("['’]s name$", ""));
        AttributePhrase b = AttributePhrase.of(other.attribute.replaceFirst("['’]s name$", ""));
        if (a.head().isEmpty() || !a.head().equals(b.head()) || !a.owners().equals(b.owners())) {
            return false;
        }
        return a.sameQualifiersAs(b);
    }

    /**
     * Whether this attribute says less than {@code other}'s about the same thing ("budget" of
     * "budget for the Hawaii trip").
     */
    public boolean lessSpecificThan(FactKey other) {
        return sameThingAs(other)
                && AttributePhrase.of(attribute).size()
                        < AttributePhrase.of(other.attribute).size();
    }

    /**
     * Whether {@code value} can be a value of {@code attribute}: a team must be one ("im DONE"
     * after "a Chelsea fan" names none).
     */
    public static boolean fits(String attribute, String value) {
        return !attribute.equals("team")
                || Lexicons.TEAMS.contains(
                        value.replaceFirst("(?i)^the ", "").toLowerCase(java.util.Locale.ROOT));
    }

    /** The fact of this key's subject and attribute with another value, as such facts are said. */
    public String sentence(String newValue) {
        String v = newValue.strip();
        return switch (attribute) {
            case "workplace" -> subject + " works at " + v + ".";
            case "residence" -> subject + " lives in " + v + ".";
            case "car" -> {
                // A make is a car: "a Corolla", where a name alone would take no article.
                String car = v.replaceFirst("(?i)^the ", "");
                yield subject
                        + " drives "
                        + (car.matches("(?i)^an? .*")
                                ? car
                                : (car.matches("(?i)^[aeiou].*") ? "an " : "a ") + car)
                        + ".";
            }
            // "Senior Data Analyst" is a title, as "Dana's job title is …" told it.
            case "occupation" ->
                    v.matches("(?:[A-Z][\\p{L}&-]*)(?: (?:of |and |&|[A-Z][\\p{L}&-]*))*")
                            ? subject + "'s job title is " + v + "."
                            : subject + " is " + v + ".";
            case "diet", "religion" -> subject + " is " + v + ".";
            case "commute" -> subject + " commutes " + v + ".";
            case "shift" -> subject + " works the " + v + ".";
            case "bank" -> subject + " banks with " + v + ".";
            case "team" -> subject + " supports " + v + ".";
            default -> withValue(v);
        };
    }

    /** An amount with its currency, and how often it is paid: "$1,400 a month". */
    private static final Pattern AMOUNT =
            Pattern.compile(
                    "^(?<sign>[$€£])(?<digits>\\d[\\d,.]*k?)(?<per> (?:a|an|per) (?:month|year|week|hour|night))?$");

    /**
     * This key, its value written as a name where {@code old}'s value is one and this one was typed
     * in lower case ("elden ring" after "Minecraft" is "Elden Ring"), or as a word where the old
     * one is a word ("Yellow" after "green"); else this key itself.
     */
    public FactKey casedAs(FactKey old) {
        // "Yellow is my favorite color now" after "green": a common word, capitalised only because
        // it began the sentence.
        if (value.matches("[A-Z][a-z]+") && ValueHint.kindOf(old.value) == ValueHint.Kind.WORD) {
            return new FactKey(subject, attribute, value.toLowerCase(Locale.ROOT));
        }
        // "down to 172" after "180 pounds": the number in the old one's unit.
        Matcher unit = UNIT.matcher(old.value);
        if (unit.matches() && value.matches("\\d[\\d.,]*")) {
            return new FactKey(subject, attribute, value + " " + unit.group(1));
        }
        // "raised my rent to 1350" after "$1,200 a month": the amount in the old one's currency.
        // "… to 1650" after "$1,400 a month": "$1,650 a month".
        Matcher amount = AMOUNT.matcher(old.value);
        if (amount.matches() && value.matches("^\\d[\\d,.]*k?$")) {
            String digits =
                    amount.group("digits").contains(",") && value.matches("\\d{4,}")
                            ? String.format(Locale.ROOT, "%,d", Long.parseLong(value))
                            : value;
            String per = amount.group("per") == null ? "" : amount.group("per");
            return new FactKey(subject, attribute, amount.group("sign") + digits + per);
        }
        String bare = value.replaceFirst("^(?:an?|the) ", "");
        // A status ("single", "engaged") is no name, whoever the partner was.
        if (!bare.equals(bare.toLowerCase(Locale.ROOT))
                || attribute.equals("relationship status")
                || ValueHint.kindOf(old.value) != ValueHint.Kind.NAME) {
            return this;
        }
        return TypedValues.name(bare)
                .map(
                        n ->
                                new FactKey(
                                        subject,
                                        attribute,
                                        value.substring(0, value.length() - bare.length()) + n))
                .orElse(this);
    }

    /**
     * The fact with this key's subject and attribute and another value, in the possessive shape.
     */
    public String withValue(String newValue) {
        return subject + "'s " + attribute + " is " + newValue + ".";
    }

    /**
     * The value as a statement says it: a partner's name without the word this key gives it
     * ("dating Jake" is said "my boyfriend is Jake"), else the value.
     */
    public String quoted() {
        return quoted(attribute, value);
    }

    /** {@link #quoted()} of a value of {@code attribute}. */
    public static String quoted(String attribute, String value) {
        return attribute.equals("relationship status") ? value.replaceFirst("^dating ", "") : value;
    }

    /**
     * Words a statement of this attribute uses, as a regular expression for PostgreSQL's {@code ~*}
     * (words of the attribute, or of living, working, marriage for those keys).
     */
    public java.util.regex.Pattern cuePattern() {
        // Java's word bounds for PostgreSQL's, and a plural too ("switched doctors").
        return java.util.regex.Pattern.compile(
                "(?i)" + cueWords().replace("\\m", "\\b").replace("\\M", "s?\\b"));
    }

    /**
     * Words a statement of this attribute uses, as a regular expression for PostgreSQL's {@code ~*}
     * (see {@link #cueWords}).
     */
    public String cueWords() {
        return AttributePhrase.cueWords(attribute);
    }

    /** What a value says more after the same words: "at Amazon", "to Sara". */
    private static final Pattern SAID_WITH_MORE = Pattern.compile("(?:at|for|with|in|on|to) .+");

    /** Whether the value differs, as a reader compares values. */
    public boolean valueDiffers(FactKey other) {
        if (normal(value).equals(normal(other.value))) {
            return false;
        }
        // "an engineer" after "an engineer at Amazon": the same value, said with less.
        String mine = value.toLowerCase(Locale.ROOT);
        String theirs = other.value.toLowerCase(Locale.ROOT);
        return !(mine.startsWith(theirs + " ")
                && SAID_WITH_MORE.matcher(mine.substring(theirs.length() + 1)).matches());
    }

    static String normal(String v) {
        String lower = v.toLowerCase(Locale.ROOT).strip();
        // "three kids" and "3 kids" give one value.
        int number = NUMBER_WORDS.indexOf(lower);
        return (number >= 0 ? String.valueOf(number) : lower).replaceAll("[^a-z0-9$€£]", "");
    }

    private static final java.util.List<String> NUMBER_WORDS =
            java.util.List.of(
                    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                    "ten");
}
