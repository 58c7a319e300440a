package io.engram.extraction.statements;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the time phrases of a sentence ("yesterday", "last Friday", "next month", "on June 5")
 * against when the sentence was said, so that a fact carries its time ("on 7 May 2023") rather than
 * a phrase that means something else a month later.
 */
public final class TimePhrases {

    /** A resolved time: when it starts, how it reads in a fact, and the words it replaced. */
    public record Resolved(LocalDate start, String text, int from, int to) {
        public Instant instant() {
            return start.atStartOfDay().toInstant(ZoneOffset.UTC);
        }
    }

    static final String MONTHS =
            "january|february|march|april|may|june|july|august|september|october|november|december"
                    + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
    static final String WEEKDAYS =
            "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
                    + "|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun";
    private static final String NUMBER =
            "\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|few";

    private static final Pattern PHRASE =
            Pattern.compile(
                    "(?i)\\b(?:"
                            + "(?<yesterday>yesterday|last night)"
                            + "|(?<today>today|tonight|this morning|this afternoon|this evening|earlier today)"
                            + "|(?<tomorrow>tomorrow)"
                            + "|(?<lastunit>last|past) (?<lu>week|weekend|month|year|summer|winter|spring|fall|autumn)"
                            + "|(?<nextunit>next|this coming) (?<nu>week|weekend|month|year|summer|winter|spring|fall|autumn)"
                            + "|(?<twoweekends>two weekends (?:later|from now))"
                            + "|(?<thisunit>this) (?<tu>week|weekend|month|year|summer|winter|spring|fall|autumn)"
                            // "about a year ago": the approximation goes with the time.
                            + "|(?:(?:about|around|roughly|almost|nearly|over) )?(?<ago>(?:"
                            + NUMBER
                            + ") (?<agounit>day|week|month|year)s? ago)"
                            + "|(?<inunit>in (?:"
                            + NUMBER
                            + ") (?<inu>day|week|month|year)s?)"
                            + "|(?<lastday>last) (?<ld>"
                            + WEEKDAYS
                            + ")"
                            + "|(?<nextday>next|this|on|this past|this coming) (?<nd>"
                            + WEEKDAYS
                            + ")"
                            + "|(?:on )?(?<md>(?<mdm>"
                            + MONTHS
                            + ")\\.? (?<mdd>\\d{1,2})(?:st|nd|rd|th)?(?:,? (?<mdy>\\d{4}))?)"
                            + "|(?:on )?(?<dm>(?<dmd>\\d{1,2})(?:st|nd|rd|th)? (?:of )?(?<dmm>"
                            + MONTHS
                            + ")(?:,? (?<dmy>\\d{4}))?)"
                            + "|(?:in |last |next |this )?(?<month>(?<mm>"
                            + MONTHS
                            + ")(?: (?<my>\\d{4}))?)"
                            + "|(?:in |since )(?<year>(?:19|20)\\d{2})"
                            + ")\\b");

    private TimePhrases() {}

    /** The first time phrase of {@code sentence}, resolved against {@code said}. */
    public static Optional<Resolved> first(String sentence, Instant said) {
        LocalDate today = LocalDate.ofInstant(said, ZoneOffset.UTC);
        Matcher m = PHRASE.matcher(sentence);
        while (m.find()) {
            Optional<Resolved> r = resolve(m, today);
            if (r.isPresent()) {
                return r;
            }
        }
        return Optional.empty();
    }

    /** Whether the sentence names a time to come (a plan rather than an event). */
    public static boolean future(String sentence) {
        return FUTURE.matcher(sentence).find();
    }

    private static final Pattern FUTURE =
            Pattern.compile(
                    "(?i)\\b(tomorrow|next (week|weekend|month|year|summer|winter|spring|fall)|this coming|in (\\d+|a|an|one|two|three|a few|a couple of) (day|week|month|year)s?|soon)\\b");

    private static Optional<Resolved> resolve(Matcher m, LocalDate today) {
        int from = m.start();
        int to = m.end();
        if (m.group("yesterday") != null) {
            return day(today.minusDays(1), from, to);
        }
        if (m.group("today") != null) {
            return day(today, from, to);
        }
        if (m.group("tomorrow") != null) {
            return day(today.plusDays(1), from, to);
        }
        if (m.group("lastunit") != null) {
            return unit(m.group("lu"), today, -1, from, to);
        }
        if (m.group("nextunit") != null) {
            return unit(m.group("nu"), today, 1, from, to);
        }
        if (m.group("twoweekends") != null) {
            LocalDate saturday =
                    today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SATURDAY)).plusWeeks(1);
            return Optional.of(
                    new Resolved(saturday, "on the weekend of " + render(saturday), from, to));
        }
        if (m.group("thisunit") != null) {
            return unit(m.group("tu"), today, 0, from, to);
        }
        if (m.group("ago") != null) {
            String amount = m.group("ago").split(" (day|week|month|year)")[0];
            if (vague(amount)
                    && !m.group("agounit").toLowerCase(Locale.ROOT).startsWith("day")
                    && !m.group("agounit").toLowerCase(Locale.ROOT).startsWith("week")) {
                // "a few years ago" is no year: a resolved one would be invented.
                return Optional.empty();
            }
            int n = number(amount);
            return shifted(m.group("agounit"), today, -n, from, to);
        }
        if (m.group("inunit") != null) {
            String amount = m.group("inunit").substring(3).split(" (day|week|month|year)")[0];
            return shifted(m.group("inu"), today, number(amount), from, to);
        }
        if (m.group("lastday") != null) {
            DayOfWeek d = weekday(m.group("ld"));
            return day(today.with(TemporalAdjusters.previous(d)), from, to);
        }
        if (m.group("nextday") != null) {
            DayOfWeek d = weekday(m.group("nd"));
            String how = m.group("nextday").toLowerCase(Locale.ROOT);
            LocalDate date =
                    how.equals("this past")
                            ? today.with(TemporalAdjusters.previous(d))
                            : today.with(TemporalAdjusters.next(d));
            return day(date, from, to);
        }
        if (m.group("md") != null) {
            return dated(m.group("mdm"), m.group("mdd"), m.group("mdy"), today, from, to);
        }
        if (m.group("dm") != null) {
            return dated(m.group("dmm"), m.group("dmd"), m.group("dmy"), today, from, to);
        }
        if (m.group("month") != null) {
            // "may" alone is mostly the verb: a month needs a year or a preposition before it.
            String text = m.group().toLowerCase(Locale.ROOT);
            if (m.group("my") == null && !text.contains(" ")) {
                return Optional.empty();
            }
            Month month = month(m.group("mm"));
            int year =
                    m.group("my") != null
                            ? Integer.parseInt(m.group("my"))
                            : text.startsWith("next")
                                    ? nextYearOf(month, today)
                                    : text.startsWith("last")
                                            ? lastYearOf(month, today)
                                            : today.getYear();
            return monthOf(YearMonth.of(year, month), from, to);
        }
        if (m.group("year") != null) {
            int year = Integer.parseInt(m.group("year"));
            LocalDate start = LocalDate.of(year, 1, 1);
            return Optional.of(new Resolved(start, "in " + year, from, to));
        }
        return Optional.empty();
    }

    private static Optional<Resolved> unit(
            String unit, LocalDate today, int shift, int from, int to) {
        String u = unit.toLowerCase(Locale.ROOT);
        switch (u) {
            case "week" -> {
                LocalDate monday = today.with(DayOfWeek.MONDAY).plusWeeks(shift);
                return Optional.of(
                        new Resolved(monday, "in the week of " + render(monday), from, to));
            }
            case "weekend" -> {
                LocalDate saturday =
                        shift < 0
                                ? today.with(TemporalAdjusters.previous(DayOfWeek.SATURDAY))
                                : today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SATURDAY));
                return Optional.of(
                        new Resolved(saturday, "on the weekend of " + render(saturday), from, to));
            }
            case "month" -> {
                return monthOf(YearMonth.from(today).plusMonths(shift), from, to);
            }
            case "year" -> {
                int year = today.getYear() + shift;
                return Optional.of(new Resolved(LocalDate.of(year, 1, 1), "in " + year, from, to));
            }
            default -> {
                // seasons (northern hemisphere): summer Jun-Aug, fall Sep-Nov, winter Dec-Feb,
                // spring Mar-May
                int startMonth =
                        switch (u) {
                            case "summer" -> 6;
                            case "fall", "autumn" -> 9;
                            case "winter" -> 12;
                            default -> 3;
                        };
                int year = today.getYear() + shift;
                String name = u.equals("autumn") ? "fall" : u;
                LocalDate start = LocalDate.of(year, startMonth, 1);
                return Optional.of(new Resolved(start, "in the " + name + " of " + year, from, to));
            }
        }
    }

    private static Optional<Resolved> shifted(
            String unit, LocalDate today, int amount, int from, int to) {
        String u = unit.toLowerCase(Locale.ROOT);
        return switch (u) {
            case "day" -> day(today.plusDays(amount), from, to);
            case "week" -> {
                LocalDate d = today.plusWeeks(amount);
                yield Optional.of(new Resolved(d, "around " + render(d), from, to));
            }
            case "month" -> monthOf(YearMonth.from(today).plusMonths(amount), from, to);
            default -> {
                int year = today.getYear() + amount;
                yield Optional.of(new Resolved(LocalDate.of(year, 1, 1), "in " + year, from, to));
            }
        };
    }

    private static Optional<Resolved> dated(
            String monthName, String dayText, String yearText, LocalDate today, int from, int to) {
        Month month = month(monthName);
        int dayOfMonth = Integer.parseInt(dayText);
        if (month == null || dayOfMonth < 1 || dayOfMonth > month.maxLength()) {
            return Optional.empty();
        }
        int year = yearText != null ? Integer.parseInt(yearText) : today.getYear();
        if (dayOfMonth > YearMonth.of(year, month).lengthOfMonth()) {
            return Optional.empty();
        }
        return day(LocalDate.of(year, month, dayOfMonth), from, to);
    }

    private static Optional<Resolved> day(LocalDate d, int from, int to) {
        return Optional.of(new Resolved(d, "on " + render(d), from, to));
    }

    private static Optional<Resolved> monthOf(YearMonth ym, int from, int to) {
        return Optional.of(
                new Resolved(
                        ym.atDay(1),
                        "in "
                                + ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                                + " "
                                + ym.getYear(),
                        from,
                        to));
    }

    /** "7 May 2023". */
    public static String render(LocalDate d) {
        return d.getDayOfMonth()
                + " "
                + d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                + " "
                + d.getYear();
    }

    private static int nextYearOf(Month month, LocalDate today) {
        return month.getValue() > today.getMonthValue() ? today.getYear() : today.getYear() + 1;
    }

    private static int lastYearOf(Month month, LocalDate today) {
        return month.getValue() < today.getMonthValue() ? today.getYear() : today.getYear() - 1;
    }

    private static Month month(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Month m : Month.values()) {
            String full = m.getDisplayName(TextStyle.FULL, Locale.ENGLISH).toLowerCase(Locale.ROOT);
            if (full.equals(n) || full.startsWith(n) && n.length() >= 3) {
                return m;
            }
        }
        return null;
    }

    private static DayOfWeek weekday(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().toLowerCase(Locale.ROOT).startsWith(n.substring(0, 3))) {
                return d;
            }
        }
        return DayOfWeek.MONDAY;
    }

    /** An amount that names no number ("a few", "a couple of"). */
    private static boolean vague(String text) {
        String t = text.toLowerCase(Locale.ROOT).trim();
        return t.equals("a few") || t.equals("few") || t.equals("a couple of");
    }

    private static int number(String text) {
        String t = text.toLowerCase(Locale.ROOT).trim();
        return switch (t) {
            case "a", "an", "one" -> 1;
            case "two", "a couple of" -> 2;
            case "three", "a few", "few" -> 3;
            case "four" -> 4;
            case "five" -> 5;
            case "six" -> 6;
            case "seven" -> 7;
            case "eight" -> 8;
            case "nine" -> 9;
            case "ten" -> 10;
            default -> {
                try {
                    yield Integer.parseInt(t);
                } catch (NumberFormatException e) {
                    yield 1;
                }
            }
        };
    }
}
