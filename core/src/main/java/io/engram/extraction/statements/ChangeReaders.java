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
 * Statements that give a new value in words other than "my X is Y": "I became a nurse", "I drive a
 * Tesla now", "I report to Raj", "I switched gyms to Equinox", "I got engaged", "Mike is my team
 * lead now", "Dune used to be my favorite book, but now it is Hyperion", "I got a raise to
 * $95,000", "I got a new car, a Mazda". Each is written in the sentence shape {@link FactKey} reads
 * a key from, so that it replaces the value it changes whichever way either was said.
 */
final class ChangeReaders {

    private ChangeReaders() {}

    /** A title in a longer phrase typed around it: "Past Lives" in "saw Past Lives last night". */
    private static final Pattern TITLE_IN =
            Pattern.compile(
                    "(?<=\\s)[A-Z][\\p{L}'’-]*(?: (?:[A-Z][\\p{L}'’-]*|of|the|and|&|\\d+))*");

    /**
     * The new value of a replacing sentence: the title it names when it begins in lower case with
     * more words around the title ("saw Past Lives last night" is "Past Lives"), else as said.
     */
    static String titleIn(String val) {
        String v = val.strip();
        if (v.isEmpty() || !Character.isLowerCase(v.charAt(0)) || v.split(" ").length < 3) {
            return v;
        }
        Matcher t = TITLE_IN.matcher(v);
        return t.find() ? t.group() : v;
    }

    /** "in the spring", "over the summer": a time of year said without a date. */
    private static final java.util.regex.Pattern SEASON =
            java.util.regex.Pattern.compile(
                    "(?i) (?:in|during|over|this|last) (?:the )?(?:spring|summer|fall|autumn|winter)");

    /** " in Vegas": a place alone, named. */
    private static final java.util.regex.Pattern PLACE_ONLY =
            java.util.regex.Pattern.compile(" in (?:[A-Z][\\p{L}.'-]+)(?: [A-Z][\\p{L}.'-]+){0,2}");

    /** The new value {@code clause} states, if it has one of these shapes. */
    static Optional<Read> read(Renderer r, String clause, Instant said) {
        Matcher m;
        if (clause.contains("my favo") && (m = USED_TO_BE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        if (clause.contains(" my ")
                && (m = INVERTED_ROLE.matcher(clause)).matches()
                && Lexicons.SINGLE_ROLES.contains(m.group("attr").toLowerCase(Locale.ROOT))) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        if ((m = RAISE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, "salary", "is", m.group("val"), said, 0.85);
        }
        if ((m = NEW_THING.matcher(clause)).matches() && newThing(m.group("attr"))) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        // Each shape below is tried only on a clause with its telling word: most clauses have none.
        if (clause.contains(" as my ")
                && ((m = REPLACED_BY.matcher(clause)).matches()
                        || (m = REPLACED_AS.matcher(clause)).matches())
                && (m.group("attr").toLowerCase(Locale.ROOT).startsWith("favo")
                        || Lexicons.SINGLE_ROLES.contains(
                                m.group("attr").toLowerCase(Locale.ROOT)))) {
            return StatementReaders.attribute(
                    r, m.group("attr"), "is", titleIn(m.group("val")), said, 0.8);
        }
        if (clause.contains("favo") && (m = INTO_FAVORITE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        if (clause.contains("budgeting") && (m = BUDGETING.matcher(clause)).matches()) {
            return StatementReaders.attribute(
                    r, "budget for " + m.group("what"), "is", m.group("val"), said, 0.85);
        }
        if ((m = CAREER.matcher(clause)).matches()) {
            return StatementReaders.role(r, m.group("role"), null, said);
        }
        if (clause.contains(" me")
                && (m = HIRED_ME.matcher(clause)).matches()
                && !Lexicons.RELATIONS.contains(m.group("org").toLowerCase(Locale.ROOT))
                && !m.group("org").matches("(?i)mom|dad|my .*")) {
            String when = m.group("when");
            Optional<TimePhrases.Resolved> at =
                    when == null ? Optional.empty() : TimePhrases.first(when, said);
            if (when != null && at.isEmpty()) {
                return Optional.empty();
            }
            return StatementReaders.organisation(m.group("org"))
                    .map(
                            org ->
                                    Read.since(
                                            "attribute",
                                            r.subject() + " works at " + org,
                                            at,
                                            said,
                                            0.85));
        }
        if ((m = LETS_MAKE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.85);
        }
        if ((m = EARNS.matcher(clause)).matches()) {
            String per = m.group("per") == null ? "" : m.group("per");
            return StatementReaders.attribute(r, "salary", "is", m.group("val") + per, said, 0.85);
        }
        if (clause.contains("pay") && (m = PAYS.matcher(clause)).matches()) {
            String per = m.group("per") != null ? m.group("per") : m.group("per2");
            return StatementReaders.attribute(
                    r,
                    m.group("attr"),
                    "is",
                    m.group("val") + (per == null ? "" : per),
                    said,
                    0.85);
        }
        if ((clause.contains(" me ") || clause.contains("use "))
                && (m = REACH_ME.matcher(clause)).matches()) {
            String val = m.group("val").strip();
            String attr = val.contains("@") ? "email" : "phone number";
            return StatementReaders.attribute(r, attr, "is", val, said, 0.85);
        }
        if ((m = NEW_LABEL.matcher(clause)).matches()) {
            String attr = m.group("attr");
            // "New number: …" is a phone's, as "my number" is.
            attr = attr.matches("(?i)number|cell(?: number)?") ? "phone number" : attr;
            // "new email btw: …": the address itself, whatever words come before it.
            String val = m.group("val");
            Matcher contact =
                    (attr.toLowerCase(Locale.ROOT).contains("email")
                                    ? ValueHint.EMAIL
                                    : ValueHint.PHONE)
                            .matcher(val);
            if (attr.matches("(?i).*(?:email|number|cell).*")) {
                if (!contact.find()) {
                    return Optional.empty();
                }
                val = contact.group();
            }
            return StatementReaders.attribute(r, attr, "is", val, said, 0.85);
        }
        if ((m = DATING.matcher(clause)).matches()) {
            return Optional.of(
                    Read.relationship(r.subject() + " is dating " + m.group("name"), said));
        }
        if ((clause.contains(" from ") && (m = FROM_TO.matcher(clause)).matches())
                || (m = TRADED.matcher(clause)).matches()
                || (m = REPLACED_WITH.matcher(clause)).matches()
                || (clause.contains("instead of") && (m = INSTEAD_OF.matcher(clause)).matches())) {
            // Kept in these words: the planner gives it the attribute the old value is stored
            // under ("Dana works at Intel" → "Dana works at AMD"), or stores it as it is.
            // "… to AMD last month": the time it changed, not part of the value.
            String said2 = m.group("new");
            Optional<TimePhrases.Resolved> when = TimePhrases.first(said2, said);
            String newValue = when.map(w -> cutOut(said2, w)).orElse(said2);
            Optional<String> from = phrase(m.group("old"), 5).filter(o -> !vague(o));
            Optional<String> to = phrase(newValue, 5).filter(n -> !vague(n));
            if (from.isEmpty() || to.isEmpty()) {
                return Optional.empty();
            }
            String text =
                    r.subject()
                            + " switched from "
                            + r.thirdPerson(from.get())
                            + " to "
                            + r.thirdPerson(to.get());
            return Optional.of(Read.since("change", text, when, said, 0.7));
        }
        if ((clause.contains(" up") || clause.contains("quits"))
                && (m = BROKE_UP.matcher(clause)).matches()) {
            String with = m.group("name") != null ? m.group("name") : r.companion();
            String when = m.group("when");
            Optional<TimePhrases.Resolved> at =
                    when == null ? Optional.empty() : TimePhrases.first(when, said);
            // "… in the spring": a time no date is read from, kept in the words.
            boolean season = when != null && at.isEmpty() && SEASON.matcher(when).matches();
            if (with == null || (when != null && at.isEmpty() && !season)) {
                return Optional.empty();
            }
            String text =
                    r.speaker()
                            + " broke up with "
                            + with
                            + (season ? when : at.map(t -> " " + t.text()).orElse(""));
            return Optional.of(Read.since("relationship", text, at, said, 0.75));
        }
        if (clause.contains("called off") && CALLED_OFF.matcher(clause).matches()) {
            String with = r.companion();
            return Optional.of(
                    Read.of(
                            "relationship",
                            r.speaker()
                                    + " is no longer engaged"
                                    + (with == null ? "" : " to " + with),
                            said,
                            0.75));
        }
        if (IN_RELATIONSHIP.matcher(clause).matches()) {
            return attribute(r, " is in a relationship", said);
        }
        if ((m = PARENT_OF.matcher(clause)).matches()) {
            return attribute(r, " has " + m.group("n") + " children", said);
        }
        if ((m = NO_LONGER.matcher(clause)).matches()) {
            return attribute(r, " is no longer " + m.group("state"), said);
        }
        if ((m = BECAME.matcher(clause)).matches()) {
            return StatementReaders.role(r, m.group("role"), m.group("where"), said);
        }
        if ((m = DRIVES.matcher(clause)).matches()) {
            return phrase(m.group("car"), 5)
                    .filter(car -> !vague(car))
                    .map(car -> Read.of("attribute", r.subject() + " drives " + car, said, 0.7));
        }
        if ((m = REPORTS_TO.matcher(clause)).matches()) {
            return Optional.of(
                    Read.relationship(r.possessive() + " boss is " + m.group("name"), said));
        }
        if ((m = SWITCHED.matcher(clause)).matches()) {
            String attr = m.group("attr").toLowerCase(Locale.ROOT);
            if (Lexicons.NOT_ATTRIBUTES.contains(attr) || attr.length() < 3) {
                return Optional.empty();
            }
            return StatementReaders.attribute(r, attr, "is", m.group("val"), said, 0.8);
        }
        if ((m = GOT_STATE.matcher(clause)).matches()) {
            String state =
                    m.group("knot") != null
                            ? "married"
                            : (m.group("state") != null
                                            ? m.group("state")
                                            : m.group("bare") != null
                                                    ? m.group("bare")
                                                    : m.group("are"))
                                    .toLowerCase(Locale.ROOT);
            // "Sam and I got married": the speaker's status, to the companion.
            String text =
                    r.companion() == null
                            ? r.subject() + " got " + state
                            : r.speaker()
                                    + " got "
                                    + state
                                    + (state.equals("engaged") || state.equals("married")
                                            ? " to "
                                            : " from ")
                                    + r.companion();
            String rest = m.group("when");
            if (rest == null) {
                return Optional.of(Read.of("attribute", text, said, 0.75));
            }
            // "I got divorced last year": the time, and nothing else ("… to Sam" is read
            // elsewhere).
            Optional<Read> timed =
                    TimePhrases.first(rest, said)
                            .filter(t -> cutOut(rest, t).isBlank())
                            .map(
                                    t ->
                                            new Read(
                                                    "attribute",
                                                    MemoryType.SEMANTIC,
                                                    text + " " + t.text(),
                                                    t.instant(),
                                                    0.75));
            // "… in the spring": a time no date is read from, kept in the words; "… in Vegas":
            // where, kept too.
            if (timed.isEmpty()
                    && (SEASON.matcher(rest).matches() || PLACE_ONLY.matcher(rest).matches())) {
                return Optional.of(Read.of("attribute", text + rest, said, 0.75));
            }
            return timed;
        }
        if ((m = NAMED_FAN.matcher(clause)).matches()) {
            String how = m.group("how").toLowerCase(Locale.ROOT);
            return Optional.of(
                    Read.of(
                            "preference",
                            r.subject()
                                    + (m.group("obj").matches("(?i)^[aeiou].*")
                                            ? " is an "
                                            : " is a ")
                                    + m.group("obj")
                                    + " "
                                    + how,
                            said,
                            0.65));
        }
        if ((m = USES.matcher(clause)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            int space = verb.indexOf(' ');
            String head = space < 0 ? verb : verb.substring(0, space);
            String tail = space < 0 ? "" : verb.substring(space);
            String third = head.equals("go") ? "goes" : head + "s";
            return Optional.of(
                    Read.of(
                            "preference",
                            r.subject() + " " + third + tail + m.group("val"),
                            said,
                            0.65));
        }
        return Optional.empty();
    }

    /** A statement of the speaker's, in lower case after the subject. */
    private static Optional<Read> attribute(Renderer r, String rest, Instant said) {
        return Optional.of(
                Read.of("attribute", r.subject() + rest.toLowerCase(Locale.ROOT), said, 0.75));
    }

    /** What "I got a new …, X" names the new value of: a belonging, a role, a favorite. */
    private static boolean newThing(String attr) {
        String a = attr.toLowerCase(Locale.ROOT);
        // "a new running coach": a coach.
        String head = Phrases.lastWord(a);
        return Lexicons.BELONGINGS.contains(a)
                || Lexicons.SINGLE_ROLES.contains(a)
                || !head.equals(a)
                        && (Lexicons.BELONGINGS.contains(head)
                                || Lexicons.SINGLE_ROLES.contains(head))
                || a.matches("email|number|phone number|address|username")
                || a.startsWith("favorite ")
                || a.startsWith("favourite ");
    }
}
