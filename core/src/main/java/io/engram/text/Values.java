package io.engram.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the values in a text — amounts, dates, times, percentages, plain numbers and names — so
 * that two statements about the same thing with different values can be told apart.
 */
public final class Values {

    /** Kinds of value, in the order they are searched (earlier kinds win overlaps). */
    public enum Kind {
        MONEY,
        DATE,
        TIME,
        PERCENT,
        NUMBER,
        NAME
    }

    /** A value found in a text: its kind, its text as written and where. */
    public record Value(Kind kind, String text, int start, int end) {
        /** A comparable form: digits and letters only, lower case. */
        public String normalized() {
            return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]", "");
        }
    }

    private static final String MONTH =
            "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
    private static final String WEEKDAY =
            "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
    private static final Pattern MONEY =
            Pattern.compile(
                    "(?i)(?:[$€£¥]\\s?\\d[\\d,]*(?:\\.\\d+)?(?:\\s?(?:k|m|bn|million|billion|thousand))?"
                            + "|\\b\\d[\\d,]*(?:\\.\\d+)?\\s?(?:dollars|usd|euros?|eur|pounds|gbp|bucks)\\b"
                            // "bumped me up to 68k", "making 95k": pay said in thousands.
                            + "|(?<=\\b(?:to|at|make|making|earn|earning|paid|of|now) )\\d{2,3}(?:\\.\\d)?k\\b)");
    private static final Pattern DATE =
            Pattern.compile(
                    "(?i)\\b(?:\\d{4}-\\d{2}-\\d{2}"
                            + "|\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?"
                            + "|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?"
                            + MONTH
                            + "\\b(?:,?\\s+\\d{4})?"
                            + "|"
                            + MONTH
                            + "\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b(?:,?\\s+\\d{4})?"
                            + "|"
                            + MONTH
                            + "\\s+\\d{4}"
                            + "|(?:next|last|this)\\s+(?:week|month|year|weekend|"
                            + WEEKDAY
                            + "|"
                            + MONTH
                            + ")"
                            + "|(?:yesterday|today|tomorrow|tonight)"
                            + "|"
                            + WEEKDAY
                            + "|(?:19|20)\\d{2})\\b");
    private static final Pattern TIME =
            Pattern.compile(
                    "(?i)\\b\\d{1,2}(?::\\d{2})?\\s?(?:am|pm|a\\.m\\.|p\\.m\\.)|\\b\\d{1,2}:\\d{2}\\b");
    private static final Pattern PERCENT =
            Pattern.compile("\\b\\d+(?:\\.\\d+)?\\s?%|\\b\\d+(?:\\.\\d+)?\\s?percent\\b");
    private static final Pattern NUMBER =
            Pattern.compile(
                    "(?i)\\b\\d[\\d,]*(?:\\.\\d+)?\\b|\\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)\\b");
    private static final Pattern NAME =
            // "AT&T", "H&M": an ampersand between capitals is inside the name.
            Pattern.compile(
                    "\\b[A-Z](?=[a-zA-Z'’-]|&[A-Z])[a-zA-Z'’-]*(?:&[A-Z][a-zA-Z'’-]*)*(?:\\s+[A-Z](?=[a-zA-Z'’-]|&[A-Z])[a-zA-Z'’-]*(?:&[A-Z][a-zA-Z'’-]*)*)*");
    private static final java.util.Set<String> NOT_NAMES =
            java.util.Set.of(
                    "I",
                    "I'm",
                    "I've",
                    "I'll",
                    "I'd",
                    "The",
                    "A",
                    "An",
                    "My",
                    "Our",
                    "We",
                    "You",
                    "He",
                    "She",
                    "They",
                    "It",
                    "This",
                    "That",
                    "Yes",
                    "No",
                    "Oh",
                    "Well",
                    "So",
                    "But",
                    "And",
                    "Also",
                    "Actually",
                    "Hey",
                    "Hi",
                    "Hello",
                    "Thanks",
                    "Thank",
                    "Please",
                    "Ok",
                    "Okay",
                    "Wow",
                    "What",
                    "When",
                    "Where",
                    "Why",
                    "How",
                    "Who",
                    "Which",
                    "Do",
                    "Does",
                    "Did",
                    "Is",
                    "Are",
                    "Was",
                    "Were",
                    "Can",
                    "Could",
                    "Would",
                    "Should",
                    "Will",
                    "Let",
                    "Let's",
                    "Just",
                    "If",
                    "Make",
                    "Sure",
                    "Great",
                    "Cool",
                    "Nice",
                    "Sounds",
                    "Good",
                    "Lol",
                    "Haha",
                    "Yeah",
                    "Monday",
                    "Tuesday",
                    "Wednesday",
                    "Thursday",
                    "Friday",
                    "Saturday",
                    "Sunday");

    private Values() {}

    /** The values in {@code text}, left to right, without overlaps. */
    public static List<Value> find(String text) {
        List<Value> found = new ArrayList<>();
        add(found, Kind.MONEY, MONEY, text);
        add(found, Kind.DATE, DATE, text);
        add(found, Kind.TIME, TIME, text);
        add(found, Kind.PERCENT, PERCENT, text);
        add(found, Kind.NUMBER, NUMBER, text);
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            String name = m.group();
            int start = m.start();
            // A capital at the start of a sentence is grammar, not a name, unless more words
            // follow.
            String first = name.split("\\s+")[0];
            while (NOT_NAMES.contains(first) || DATE.matcher(first).matches()) {
                String rest = name.substring(first.length()).trim();
                if (rest.isEmpty()) {
                    break;
                }
                start = start + name.indexOf(rest);
                name = rest;
                first = name.split("\\s+")[0];
            }
            if (NOT_NAMES.contains(name)) {
                continue;
            }
            // "Alice's Hawaii trip": a possessive ends a name.
            int offset = 0;
            for (String part : name.split("(?<=['’]s)\\s+")) {
                int partStart = start + name.indexOf(part, offset);
                offset = partStart - start + part.length();
                if (!DATE.matcher(part).matches()) {
                    addIfFree(
                            found,
                            new Value(Kind.NAME, part, partStart, partStart + part.length()));
                }
            }
        }
        found.sort(java.util.Comparator.comparingInt(Value::start));
        return found;
    }

    /** {@code text} with every value replaced by a placeholder of its kind. */
    public static String mask(String text) {
        List<Value> values = find(text);
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (Value v : values) {
            out.append(text, at, v.start()).append('<').append(v.kind().name()).append('>');
            at = v.end();
        }
        return out.append(text.substring(at)).toString();
    }

    private static void add(List<Value> found, Kind kind, Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            addIfFree(
                    found,
                    new Value(
                            kind,
                            m.group().trim(),
                            m.start(),
                            m.start() + m.group().trim().length()));
        }
    }

    private static void addIfFree(List<Value> found, Value v) {
        for (Value f : found) {
            if (v.start() < f.end() && f.start() < v.end()) {
                return;
            }
        }
        found.add(v);
    }
}
