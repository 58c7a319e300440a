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
 * Tesla now", "I report to Raj", "I switched gyms to Equinox", "I got engaged". Each is written in
 * the sentence shape {@link FactKey} reads a key from, so that it replaces the value it changes
 * whichever way either was said.
 */
final class ChangeReaders {

    private ChangeReaders() {}

    /** The new value {@code clause} states, if it has one of these shapes. */
    static Optional<Read> read(Renderer r, String clause, Instant said) {
        Matcher m;
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
            String text = r.subject() + " got " + m.group("state").toLowerCase(Locale.ROOT);
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
