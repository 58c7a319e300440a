package io.engram.query.agentic;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a question names, as a window of validity: "in 2023", "in May 2023", "in May" (the last
 * May up to now), "last year", "this month", "last week". Nothing for a vague time ("a while ago")
 * or none at all.
 */
public final class QuestionTime {

    private QuestionTime() {}

    /** A window [from, to) and the words that named it. */
    public record Window(Instant from, Instant to, String phrase) {
        public boolean contains(Instant t) {
            return t != null && !t.isBefore(from) && t.isBefore(to);
        }
    }

    private static final String MONTH =
            "(january|february|march|april|may|june|july|august|september|october|november|december)";
    private static final Pattern MONTH_YEAR =
            Pattern.compile(
                    "(?i)\\b(?:in|during|of|throughout)\\s+(?:early\\s+|late\\s+|mid-?)?"
                            + MONTH
                            + ",?\\s+((?:19|20)\\d\\d)\\b");
    private static final Pattern YEAR =
            Pattern.compile(
                    "(?i)\\b(?:in|during|of|throughout)\\s+(?:early\\s+|late\\s+|mid-?)?((?:19|20)\\d\\d)\\b");
    private static final Pattern MONTH_ONLY =
            Pattern.compile(
                    "(?i)\\b(?:in|during|throughout)\\s+(?:early\\s+|late\\s+|mid-?)?"
                            + MONTH
                            + "\\b(?!\\s*,?\\s*\\d)");
    private static final Pattern RELATIVE =
            Pattern.compile("(?i)\\b(last|this|past)\\s+(year|month|week)\\b");

    public static Optional<Window> named(String question, Instant now) {
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        Matcher m = MONTH_YEAR.matcher(question);
        if (m.find()) {
            LocalDate start = LocalDate.of(Integer.parseInt(m.group(2)), month(m.group(1)), 1);
            return Optional.of(window(start, start.plusMonths(1), m.group()));
        }
        m = YEAR.matcher(question);
        if (m.find()) {
            LocalDate start = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
            return Optional.of(window(start, start.plusYears(1), m.group()));
        }
        m = MONTH_ONLY.matcher(question);
        // "May" is also a verb: only "in May" counts, and only capitalised.
        if (m.find() && Character.isUpperCase(m.group(1).charAt(0))) {
            LocalDate start = LocalDate.of(today.getYear(), month(m.group(1)), 1);
            if (start.isAfter(today)) {
                start = start.minusYears(1);
            }
            return Optional.of(window(start, start.plusMonths(1), m.group()));
        }
        m = RELATIVE.matcher(question);
        if (m.find()) {
            boolean last = !m.group(1).equalsIgnoreCase("this");
            LocalDate start;
            LocalDate end;
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "year" -> {
                    start = today.withDayOfYear(1).minusYears(last ? 1 : 0);
                    end = start.plusYears(1);
                }
                case "month" -> {
                    start = today.withDayOfMonth(1).minusMonths(last ? 1 : 0);
                    end = start.plusMonths(1);
                }
                default -> {
                    start =
                            today.with(TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY))
                                    .minusWeeks(last ? 1 : 0);
                    end = start.plusWeeks(1);
                }
            }
            return Optional.of(window(start, end, m.group()));
        }
        return Optional.empty();
    }

    private static int month(String name) {
        return java.time.Month.valueOf(name.toUpperCase(Locale.ROOT)).getValue();
    }

    private static Window window(LocalDate from, LocalDate to, String phrase) {
        return new Window(
                from.atStartOfDay(ZoneOffset.UTC).toInstant(),
                to.atStartOfDay(ZoneOffset.UTC).toInstant(),
                phrase.strip());
    }
}
