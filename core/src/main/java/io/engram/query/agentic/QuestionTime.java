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
 * The time a question names, as a window of validity: "in 2023", "in May 2023", "in May" (May of
 * any year; the last one up to now reported), "last year", "this month", "last week", a day ("on 3
 * June, 2023": the two weeks up to it; "by 3 June, 2023": everything up to it). Nothing for a vague
 * time ("a while ago") or none at all.
 */
public final class QuestionTime {

    private QuestionTime() {}

    /**
     * A window [from, to) and the words that named it; {@code everyYear}: a month named without its
     * year, whose days of any year are in it too (the window itself is the latest).
     */
    public record Window(Instant from, Instant to, String phrase, boolean everyYear) {
        public boolean contains(Instant t) {
            if (t == null) {
                return false;
            }
            if (everyYear) {
                return t.atZone(ZoneOffset.UTC).getMonth()
                        == from.atZone(ZoneOffset.UTC).getMonth();
            }
            return !t.isBefore(from) && t.isBefore(to);
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

    /** A day with its year: "3 June, 2023", "8th December 2023", "August 3, 2023". */
    private static final Pattern DAY =
            Pattern.compile(
                    "(?i)(?:\\b(by|until|up to|as of)\\s+(?:the\\s+)?)?(?:\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+"
                            + MONTH
                            + "|\\b"
                            + MONTH
                            + "\\s+(\\d{1,2})(?:st|nd|rd|th)?)\\s*,?\\s*((?:19|20)\\d\\d)\\b");

    /**
     * How far before a named day its window starts: what someone tells on a day mostly happened in
     * the days before ("last weekend", "two weeks ago"), and a memory of it is dated then.
     */
    static final int DAYS_BEFORE = 14;

    private static final Pattern RELATIVE =
            Pattern.compile("(?i)\\b(last|this|past)\\s+(year|month|week)\\b");

    public static Optional<Window> named(String question, Instant now) {
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        Matcher m = DAY.matcher(question);
        if (m.find()) {
            Optional<LocalDate> day = day(m);
            if (day.isPresent()) {
                // "by 10 July, 2022" asks about everything up to that day.
                LocalDate from =
                        m.group(1) != null
                                ? LocalDate.of(1970, 1, 1)
                                : day.get().minusDays(DAYS_BEFORE);
                return Optional.of(window(from, day.get().plusDays(1), m.group()));
            }
        }
        m = MONTH_YEAR.matcher(question);
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
            Window latest = window(start, start.plusMonths(1), m.group());
            return Optional.of(new Window(latest.from(), latest.to(), latest.phrase(), true));
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

    private static Optional<LocalDate> day(Matcher m) {
        boolean dayFirst = m.group(2) != null;
        int dayOfMonth = Integer.parseInt(dayFirst ? m.group(2) : m.group(5));
        int month = month(dayFirst ? m.group(3) : m.group(4));
        try {
            return Optional.of(LocalDate.of(Integer.parseInt(m.group(6)), month, dayOfMonth));
        } catch (java.time.DateTimeException e) {
            return Optional.empty();
        }
    }

    private static int month(String name) {
        return java.time.Month.valueOf(name.toUpperCase(Locale.ROOT)).getValue();
    }

    private static Window window(LocalDate from, LocalDate to, String phrase) {
        return new Window(
                from.atStartOfDay(ZoneOffset.UTC).toInstant(),
                to.atStartOfDay(ZoneOffset.UTC).toInstant(),
                phrase.strip(),
                false);
    }
}
