package io.engram.extraction.statements;

import static io.engram.extraction.statements.EventReaders.*;
import static io.engram.extraction.statements.Phrases.*;
import static io.engram.extraction.statements.StatementPatterns.*;
import static io.engram.extraction.statements.StatementReaders.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Reads the durable statements a person makes about themselves in one clause — attributes,
 * preferences, relationships, plans, events with their time, changed values — and writes each as a
 * clean third-person sentence with the person's name ("My budget for the Hawaii trip is $10,000" →
 * "Alice's budget for the Hawaii trip is $10,000."). A clause that matches no pattern, or whose
 * parts are vague ("I love it"), judging ("my day was great"), hedged or about the listener, yields
 * nothing: precision before recall, the conversation excerpt keeps the words.
 */
public final class StatementExtractor {

    /**
     * The statements {@code clause} makes about its speaker ({@code name}; null when not named),
     * said at {@code said}. Every one is checked by {@link FactShape}.
     */
    public List<Statement> read(String name, String clause, Instant said) {
        Optional<Statement> main = readClause(name, clause, said);
        String c = clause.strip();
        if (c.isEmpty() || c.endsWith("?") || HEDGE.matcher(c).find()) {
            return main.map(List::of).orElse(List.of());
        }
        Renderer r = new Renderer(name);
        Optional<Statement> by =
                InPassing.of(r, c, said, main.map(Statement::kind).orElse(null))
                        .flatMap(x -> statement(r, x));
        if (by.isEmpty()) {
            return main.map(List::of).orElse(List.of());
        }
        return main.isEmpty() ? List.of(by.get()) : List.of(main.get(), by.get());
    }

    private Optional<Statement> readClause(String name, String clause, Instant said) {
        Renderer r = new Renderer(name);
        String c = clause.strip();
        if (c.isEmpty()
                || c.endsWith("?")
                || HEDGE.matcher(c).find()
                || SHOUTED.matcher(c).find()) {
            return Optional.empty();
        }
        Matcher together = COMPANION.matcher(c);
        if (together.matches()) {
            String with = together.group("with");
            if (Lexicons.EMPTY_OBJECTS.contains(firstWord(with))) {
                return Optional.empty();
            }
            r = r.with(r.thirdPerson(with));
            c = "we " + together.group("rest");
        }
        Optional<Read> read = readClause(r, c, said);
        return read.isEmpty() ? Optional.empty() : statement(r, read.get());
    }

    /** What was read, as a checked statement of the speaker's. */
    private static Optional<Statement> statement(Renderer r, Read x) {
        String content = r.sentence(x.text());
        // "Sam and I got married" is written of the speaker alone: "Dana got married to Sam".
        String subject = content.startsWith(r.subject()) ? r.subject() : r.speaker();
        if (FactShape.problem(content, subject).isPresent()
                || FactShape.unanchored(content).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(
                new Statement(
                        x.kind(),
                        x.type(),
                        content,
                        FactKey.of(content),
                        x.validFrom(),
                        x.importance()));
    }

    private Optional<Read> readClause(Renderer r, String c, Instant said) {
        Matcher m;
        if ((m = CHANGED_NAME.matcher(c)).matches()) {
            return attribute(r, "preferred name", "is", m.group("val"), said, 0.8);
        }
        if ((m = CAN_SPEND.matcher(c)).matches()) {
            String what = m.group("what");
            return attribute(
                    r,
                    what == null ? "budget" : "budget for " + what,
                    "is",
                    m.group("val"),
                    said,
                    0.85);
        }
        // A change to a value ends on "to" and its value: no clause without " to " is one.
        boolean possessiveChange =
                c.contains(" to ") && (m = POSSESSIVE_CHANGE.matcher(c)).matches();
        if (possessiveChange && relation(m.group("attr"))) {
            // "My brother moved to Phoenix": news of a relative, not a value that changed.
            return Optional.empty();
        }
        if (possessiveChange
                || (m = SET_TO.matcher(c)).matches()
                || (m = POSSESSIVE_TURNED.matcher(c)).matches()
                || c.contains("birthday") && (m = POSSESSIVE_BIRTHDAY.matcher(c)).matches()) {
            // "Rent just went up to …": the attribute, not a name, though it starts the clause.
            String attr = m.group("attr");
            if (c.startsWith(attr)) {
                attr = attr.substring(0, 1).toLowerCase(Locale.ROOT) + attr.substring(1);
            }
            Optional<Read> change =
                    attribute(r, attr, "is", withoutTrailingTime(m.group("val"), said), said, 0.85);
            if (change.isPresent()) {
                return change;
            }
        }
        if ((m = HOME_IS.matcher(c)).matches()) {
            return place(r.alone(), m.group("place"), said, false);
        }
        if ((m = POSSESSIVE_COPULA.matcher(c)).matches()) {
            Optional<Read> attribute =
                    attribute(
                            r, m.group("attr"), copula(m.group("cop")), m.group("val"), said, 0.8);
            if (attribute.isPresent() || !RELATIVE.matcher(c).matches()) {
                return attribute;
            }
        }
        if ((c.contains(" my ") || c.contains(" My "))
                && (m = INVERTED_FAVORITE.matcher(c)).matches()) {
            String val = m.group("val");
            // "That is my favorite", but "The 49ers are my favorite team": a name.
            if (Lexicons.EMPTY_OBJECTS.contains(firstWord(val))
                    && !val.matches("(?i:the|a|an) [A-Z0-9].*")) {
                return Optional.empty();
            }
            return attribute(r, m.group("attr"), "is", val, said, 0.8);
        }
        // "My wife and I moved to Austin": where the speaker lives, whoever came along.
        if ((m = LIVES.matcher(c)).matches()
                || (m = HOME_IS.matcher(c)).matches()
                || c.contains(" been in ") && (m = PassingPlaces.BEEN_IN.matcher(c)).matches()) {
            return place(r.alone(), m.group("place"), said, false);
        }
        if (c.endsWith("home") && (m = HOME_NAMED_FIRST.matcher(c)).matches()) {
            return place(r.alone(), m.group("place"), said, false);
        }
        if ((m = RESIDENT.matcher(c)).matches()) {
            String place = m.group("place") != null ? m.group("place") : m.group("home");
            return place(r.alone(), place, said, false);
        }
        if ((m = MOVED.matcher(c)).matches()) {
            return place(r.alone(), m.group("place"), said, true);
        }
        if ((m = ORIGIN.matcher(c)).matches()) {
            return origin(r, m.group("verb"), m.group("prep"), m.group("place"), said);
        }
        Optional<Read> routine = Routines.read(r, c, said).or(() -> Circumstances.read(r, c, said));
        if (routine.isPresent()) {
            return routine;
        }
        Optional<Optional<Read>> work = WorkReaders.read(r, c, said);
        if (work.isPresent()) {
            return work.get();
        }
        Optional<Read> changed = ChangeReaders.read(r, c, said);
        if (changed.isPresent()) {
            return changed;
        }
        if ((m = MARRIED_TO.matcher(c)).matches()) {
            // A semantic memory, as "Dana is single" is: the newer status replaces the older.
            return Optional.of(
                    Read.of(
                            "relationship",
                            r.subject()
                                    + " is "
                                    + m.group("state").toLowerCase(Locale.ROOT)
                                    + " to "
                                    + m.group("name"),
                            said,
                            0.75));
        }
        if ((m = AGE.matcher(c)).matches() || (m = BIRTHDAY.matcher(c)).matches()) {
            String n = m.pattern() == BIRTHDAY ? "n" : m.group("n") != null ? "n" : "past";
            int years = Integer.parseInt(m.group(n));
            // "my 3rd birthday party for my son": a birthday is an age only when an adult's.
            if (years < (m.pattern() == BIRTHDAY ? 13 : 3) || years > 120) {
                return Optional.empty();
            }
            return Optional.of(
                    Read.of("attribute", r.possessive() + " age is " + years, said, 0.85));
        }
        if ((m = STATE.matcher(c)).matches()) {
            // "We are engaged": the speaker's status.
            String state = m.group("state") != null ? m.group("state") : m.group("we");
            return Optional.of(
                    Read.of(
                            "attribute",
                            r.alone().subject() + " is " + state.toLowerCase(Locale.ROOT),
                            said,
                            0.7));
        }
        if ((m = DIET.matcher(c)).matches()) {
            return Optional.of(diet(r, m.group("diet"), m.group("rest"), said));
        }
        if ((m = I_AM_ROLE.matcher(c)).matches()) {
            Optional<Read> role = role(r, m.group("role"), m.group("where"), said);
            if (role.isPresent()) {
                return role;
            }
        }
        if ((m = FAN.matcher(c)).matches()) {
            String how = m.group("how").toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            return object(r, m.group("obj"))
                    .map(
                            obj ->
                                    Read.of(
                                            "preference",
                                            r.subject() + " is " + how + " " + obj,
                                            said,
                                            0.65));
        }
        if ((m = NOT_LIKING.matcher(c)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            return object(r, m.group("obj"))
                    .map(
                            obj ->
                                    Read.of(
                                            "preference",
                                            r.subject() + " does not " + verb + " " + obj,
                                            said,
                                            0.65));
        }
        if (NEGATION.matcher(c).find()) {
            return Optional.empty();
        }
        if ((m = LIKING.matcher(c)).matches()) {
            String verb = Lexicons.LIKING.get(m.group("verb").toLowerCase(Locale.ROOT));
            String to = m.group("to") == null ? "" : " to";
            return object(r, Renderer.coordinated(m.group("obj")))
                    .map(
                            obj ->
                                    Read.of(
                                            "preference",
                                            r.subject() + " " + verb + to + " " + obj,
                                            said,
                                            0.65));
        }
        if ((m = HAVE.matcher(c)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            Optional<Read> had = Possessions.had(r, verb, m.group("rest"), said);
            if (had.isEmpty()) {
                had = Possessions.named(r, verb, m.group("rest"), said);
            }
            if (had.isPresent()) {
                return had;
            }
        }
        if (c.startsWith("I ") && c.contains(" wear ")) {
            Optional<Read> worn = Possessions.worn(r, c, said);
            if (worn.isPresent()) {
                return worn;
            }
        }
        if ((m = RELATIVE.matcher(c)).matches()) {
            String rel = m.group("rel").toLowerCase(Locale.ROOT);
            if (!Lexicons.RELATIONS.contains(rel) && !Lexicons.RELATIONS.contains(lastWord(rel))) {
                return Optional.empty();
            }
            String relative = r.possessive() + " " + rel + " " + m.group("name") + " ";
            return withTime(r, m.group("pred"), said)
                    .map(
                            t ->
                                    new Read(
                                            "relationship",
                                            MemoryType.SOCIAL,
                                            relative + t.text(),
                                            t.at(),
                                            0.75));
        }
        if ((m = PROCEDURE.matcher(c)).matches()) {
            return procedure(r, m.group("goal"), m.group("steps"), said);
        }
        if ((m = LUCKY_TO_HAVE.matcher(c)).matches()) {
            String rel = m.group("rel").toLowerCase(Locale.ROOT);
            String rel2 = m.group("rel2") == null ? null : m.group("rel2").toLowerCase(Locale.ROOT);
            if (!Lexicons.RELATIONS.contains(rel)
                    || (rel2 != null && !Lexicons.RELATIONS.contains(rel2))) {
                return Optional.empty();
            }
            return Optional.of(
                    Read.social(
                            r.subject()
                                    + " has "
                                    + article(rel)
                                    + (rel2 == null ? "" : " and " + rel2),
                            said));
        }
        if ((m = DONE.matcher(c)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            String has = verb.equals("been to") ? "has been to" : "has " + verb;
            return withTime(r, m.group("rest").strip(), said)
                    .filter(t -> !Lexicons.EMPTY_OBJECTS.contains(firstWord(t.text())))
                    .filter(t -> contentWords(t.text()) >= 1)
                    .map(
                            t ->
                                    new Read(
                                            "event",
                                            MemoryType.EPISODIC,
                                            r.subject() + " " + has + " " + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((m = PLAN.matcher(c)).matches() || (m = INTEND.matcher(c)).matches()) {
            String lead = c.toLowerCase(Locale.ROOT);
            boolean wants = lead.matches("^i (want|hope|would like|would love).*");
            return plan(r, m.group("vp"), said, wants);
        }
        if ((m = WILL.matcher(c)).matches()) {
            if (TimePhrases.first(c, said).isEmpty()) {
                return Optional.empty();
            }
            return plan(r, m.group("vp"), said, false);
        }
        if ((m = ACTIVITY.matcher(c)).matches()
                && Lexicons.ACTIVITIES.contains(m.group("ving").toLowerCase(Locale.ROOT))
                && !(m.group("ving").matches("(?i)starting|beginning|trying")
                        && m.group("rest").strip().startsWith("to "))) {
            String ving = m.group("ving").toLowerCase(Locale.ROOT);
            boolean perfect = c.toLowerCase(Locale.ROOT).contains(" have ");
            return withTime(r, ving + " " + m.group("rest").strip(), said)
                    .filter(t -> !vague(t.text().substring(ving.length())))
                    .filter(t -> contentWords(t.text()) >= 2)
                    .map(
                            t ->
                                    new Read(
                                            "activity",
                                            MemoryType.SEMANTIC,
                                            r.subject()
                                                    + (perfect ? " has been " : " is ")
                                                    + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((m = PROGRESSIVE.matcher(c)).matches()) {
            Optional<TimePhrases.Resolved> when = TimePhrases.first(c, said);
            if (when.isEmpty() || !when.get().instant().isAfter(said.minusSeconds(86_400))) {
                return Optional.empty();
            }
            return withTime(r, m.group("ving") + " " + m.group("rest").strip(), said)
                    .map(
                            t ->
                                    new Read(
                                            "plan",
                                            MemoryType.SEMANTIC,
                                            r.subject() + " is " + t.text(),
                                            t.at(),
                                            0.65));
        }
        if ((m = EVENT.matcher(c)).matches()) {
            return event(r, m.group("verb").toLowerCase(Locale.ROOT), m.group("rest"), said);
        }
        return Optional.empty();
    }

    /** Whether an attribute names a relative or a pet ("brother", "older sister", "dog"). */
    /** "has been" said of a value is its "is": "my favorite band has been Wet Leg". */
    private static String copula(String cop) {
        return cop.equals("has been") ? "is" : cop.equals("have been") ? "are" : cop;
    }

    private static boolean relation(String attr) {
        String a = attr.toLowerCase(Locale.ROOT);
        return Lexicons.RELATIONS.contains(a) || Lexicons.RELATIONS.contains(lastWord(a));
    }
}
