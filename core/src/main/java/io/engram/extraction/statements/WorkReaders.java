package io.engram.extraction.statements;

import static io.engram.extraction.statements.Phrases.*;
import static io.engram.extraction.statements.StatementPatterns.*;
import static io.engram.extraction.statements.StatementReaders.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Where someone works and as what: "I work at Stripe as a data engineer", "I was laid off from IBM
 * last month", "got promoted to senior developer".
 */
final class WorkReaders {

    private WorkReaders() {}

    /**
     * What {@code c} says of the speaker's work: empty when it is no statement of work; a present
     * empty answer when it is one but names nothing to store (no reader after it is asked).
     */
    /** A role and where it is held: "a dental hygienist at Bright Smiles". */
    private static final java.util.regex.Pattern ROLE_AT =
            java.util.regex.Pattern.compile("(?i)^(?<role>an? .+?) (?:at|for) (?<org>.+)$");

    static Optional<Optional<Read>> read(Renderer r, String c, Instant said) {
        Matcher m;
        if ((m = QUIT.matcher(c)).matches()) {
            // "I was laid off from IBM last month": the time it ended, not part of the name.
            String named = m.group("org");
            Optional<TimePhrases.Resolved> when = TimePhrases.first(named, said);
            return Optional.of(
                    organisation(when.map(w -> cutOut(named, w)).orElse(named))
                            .map(
                                    org ->
                                            Read.since(
                                                    "change",
                                                    r.subject() + " no longer works at " + org,
                                                    when,
                                                    said,
                                                    0.8)));
        }
        if ((m = NEW_JOB.matcher(c)).matches()
                || (m = JOINED_AS.matcher(c)).matches() && m.group("role") != null
                || (m = WORKS_AT.matcher(c)).matches()
                || (m = HIRED.matcher(c)).matches()
                || (m = STARTED_AT.matcher(c)).matches()
                || c.contains(" first ") && (m = FIRST_DAY.matcher(c)).matches()
                || (m = AT_AS.matcher(c)).matches()) {
            String role = m.group("role");
            // "at Stripe last week": the time it started, not part of the name.
            String named = m.group("org");
            Optional<TimePhrases.Resolved> when = TimePhrases.first(named, said);
            Optional<String> org = organisation(when.map(w -> cutOut(named, w)).orElse(named));
            if (org.isEmpty()) {
                return Optional.of(Optional.empty());
            }
            String as = role == null ? "" : phrase(role, 5).map(p -> " as " + p).orElse("");
            return Optional.of(
                    Optional.of(
                            new Read(
                                    "attribute",
                                    MemoryType.SEMANTIC,
                                    r.subject() + " works at " + org.get() + as,
                                    when.map(TimePhrases.Resolved::instant).orElse(said),
                                    0.85)));
        }
        if ((m = WORKS_AS.matcher(c)).matches() || (m = PROMOTED.matcher(c)).matches()) {
            // "promoted to senior developer this month": the time it began, not the role.
            String named = m.group("role");
            // "I work as a dental hygienist at Bright Smiles": the employer, and the role there.
            Matcher at = ROLE_AT.matcher(named);
            if (m.pattern() == WORKS_AS && at.matches()) {
                Optional<String> org = organisation(at.group("org"));
                Optional<String> role = phrase(at.group("role"), 5);
                if (org.isPresent() && role.isPresent()) {
                    return Optional.of(
                            Optional.of(
                                    Read.of(
                                            "attribute",
                                            r.subject()
                                                    + " works at "
                                                    + org.get()
                                                    + " as "
                                                    + article(role.get()),
                                            said,
                                            0.85)));
                }
            }
            return Optional.of(
                    phrase(
                                    TimePhrases.first(named, said)
                                            .map(w -> cutOut(named, w))
                                            .orElse(named),
                                    5)
                            .map(
                                    role ->
                                            Read.of(
                                                    "attribute",
                                                    r.subject() + " works as " + article(role),
                                                    said,
                                                    0.85)));
        }
        return Optional.empty();
    }
}
