package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount a person has one of, told again as a bare number beside words of it: "landlord jacked
 * the rent AGAIN. 1625 from this month", "down to 74 on the scales this morning!!". Read by {@link
 * NamedInstead}'s planner against the speaker's stored rent, pay or weight.
 */
public final class AmountInstead {

    private AmountInstead() {}

    /** Whether a message holds a word of such an amount and a number. */
    static boolean mayTell(String message) {
        return AMOUNT_WORDS.matcher(message).find() && NUMBER.matcher(message).find();
    }

    /** Words of the amounts a person has one of: what they pay, earn or weigh. */
    private static final Pattern AMOUNT_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:rent|mortgage|salary|pay|payslip|paycheck|base|earn|earning|income|weigh|weighs|weighed|weight|scales?|weigh-in)\\b");

    /** A bare number of two to six digits, "61k" too; not a time, a count of days or a share. */
    private static final Pattern NUMBER =
            Pattern.compile(
                    "(?i)(?<![\\w.,:/-])[$€£]?((?:\\d{2,3}(?:,\\d{3})?|\\d{2,6})(?:\\.\\d)?)(kgs|kg|kilos?|k|lbs?)?\\b(?![\\w%:/.,-]*\\d)(?!\\s*(?:%|hrs?|hours?|mins?|minutes?|days?|weeks?|months?|yrs?|years?|x|times|am|pm|st|nd|rd|th|people|ppl)\\b)");

    /**
     * The amount a message gives of a stored amount's attribute: the message names the attribute
     * (or words of it: "scales" for a weight, "payslip" for pay), and exactly one number in it lies
     * within half and twice the stored one and differs from it. The stored value with that number
     * in its place ("1450 a month" → "1625 a month", "82kg" → "74kg").
     */
    public static Optional<String> of(String attribute, String stored, String message) {
        String a = attribute.toLowerCase(Locale.ROOT);
        Pattern words =
                a.endsWith("weight")
                        ? WEIGHT_WORDS
                        : a.matches(".*\\b(?:rent|mortgage)$")
                                ? RENT_WORDS
                                : a.matches(".*\\b(?:salary|pay|income|wage|wages)$")
                                        ? PAY_WORDS
                                        : null;
        Matcher old = NUMBER.matcher(stored);
        if (words == null || !words.matcher(message).find() || !old.find()) {
            return Optional.empty();
        }
        double was = amount(old);
        String found = null;
        Matcher m = NUMBER.matcher(message);
        while (m.find()) {
            double v = amount(m);
            if (v == was || v < was / 2 || v > was * 2) {
                continue;
            }
            if (found != null) {
                return Optional.empty();
            }
            found = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        }
        if (found == null) {
            return Optional.empty();
        }
        // The new number in the stored words, its unit kept where the message gave none.
        String unit = old.group(2) == null ? "" : old.group(2);
        String number = found.matches(".*[a-zA-Z]$") ? found : found + unit;
        int end = old.group(2) == null ? old.end(1) : old.end(2);
        return Optional.of(stored.substring(0, old.start(1)) + number + stored.substring(end));
    }

    private static double amount(Matcher m) {
        double v = Double.parseDouble(m.group(1).replace(",", ""));
        return m.group(2) != null && m.group(2).equalsIgnoreCase("k") ? v * 1000 : v;
    }

    private static final Pattern WEIGHT_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:weigh|weighs|weighed|weight|scales?|weigh-in|kg|kgs|lbs?)\\b");

    private static final Pattern RENT_WORDS = Pattern.compile("(?i)\\b(?:rent|mortgage)\\b");

    private static final Pattern PAY_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:salary|pay|payslip|paycheck|base|earn|earning|income|raise)\\b");
}
