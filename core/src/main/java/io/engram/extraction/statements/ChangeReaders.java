package io.engram.extraction.statements;

import static io.engram.extraction.statements.Phrases.*;
import static io.engram.extraction.statements.StatementPatterns.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Statements that give a new value in words other than "my X is Y": "I became a nurse", "I drive a
 * Tesla now", "I report to Raj", "I switched gyms to Equinox", "I got engaged", "Mike is my team
 * lead now", "Dune used to be my favorite book, but now it is Hyperion", "I got a raise to
 * $95,000", "I got a new car, a Mazda". Each is written in the sentence shape {@link FactKey} reads
 * a key from, so that it replaces the value it changes whichever way either was said.
 */
final class ChangeReaders {

    private ChangeReaders() {}

    /** The new value {@code clause} states, if it has one of these shapes. */
    static Optional<Read> read(Renderer r, String clause, Instant said) {
        Matcher m;
        if (clause.contains("my favo") && (m = USED_TO_BE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        if ((m = INVERTED_ROLE.matcher(clause)).matches()
                && Lexicons.SINGLE_ROLES.contains(m.group("attr").toLowerCase(Locale.ROOT))) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
        }
        if ((m = RAISE.matcher(clause)).matches()) {
            return StatementReaders.attribute(r, "salary", "is", m.group("val"), said, 0.85);
        }
        if ((m = NEW_THING.matcher(clause)).matches()
                && Lexicons.BELONGINGS.contains(m.group("attr").toLowerCase(Locale.ROOT))) {
            return StatementReaders.attribute(r, m.group("attr"), "is", m.group("val"), said, 0.8);
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
                    Read.of(
                            "relationship",
                            r.possessive() + " boss is " + m.group("name"),
                            said,
                            0.75));
        }
        if ((m = SWITCHED.matcher(clause)).matches()) {
            String attr = m.group("attr").toLowerCase(Locale.ROOT);
            if (Lexicons.NOT_ATTRIBUTES.contains(attr) || attr.length() < 3) {
                return Optional.empty();
            }
            return StatementReaders.attribute(r, attr, "is", m.group("val"), said, 0.8);
        }
        if ((m = GOT_STATE.matcher(clause)).matches()) {
            String state = m.group("state").toLowerCase(Locale.ROOT);
            // "Sam and I got married": the speaker's status, to the companion.
            String text =
                    r.companion() != null && !state.equals("divorced")
                            ? r.speaker() + " got " + state + " to " + r.companion()
                            : r.subject() + " got " + state;
            String rest = m.group("when");
            if (rest == null) {
                return Optional.of(Read.of("attribute", text, said, 0.75));
            }
            // "I got divorced last year": the time, and nothing else ("… to Sam" is read
            // elsewhere).
            return TimePhrases.first(rest, said)
                    .filter(t -> cutOut(rest, t).isBlank())
                    .map(
                            t ->
                                    new Read(
                                            "attribute",
                                            MemoryType.SEMANTIC,
                                            text + " " + t.text(),
                                            t.instant(),
                                            0.75));
        }
        return Optional.empty();
    }
}
