package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who someone has, told in passing: "my son Eli turns 5 next week", "my gf Priya says hi", "took my
 * dog Max to the vet". What the clause says of them may be passing news; that the speaker has a son
 * named Eli lasts, and is stored beside it ("Dana has a son named Eli.", "Dana's girlfriend is
 * Priya.").
 */
final class Mentions {

    private Mentions() {}

    /** "my son Eli", "our dog Max": a relation and a capitalised name right after it. */
    private static final Pattern MENTION =
            Pattern.compile(
                    "\\b(?i:my|our) (?<rel>(?i:[a-z]+(?: [a-z]+)?)) (?<name>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)\\b(?!['’]s\\b| and (?i:i|me)\\b)");

    /** Short forms chat uses for a relation. */
    private static final java.util.Map<String, String> SHORT =
            java.util.Map.of(
                    "gf", "girlfriend",
                    "bf", "boyfriend",
                    "hubby", "husband",
                    "bff", "best friend",
                    "sis", "sister",
                    "bro", "brother");

    /** Relations of one person at a time: "Dana's husband is Mike". */
    private static final Set<String> ONE =
            Set.of(
                    "husband",
                    "wife",
                    "partner",
                    "boyfriend",
                    "girlfriend",
                    "fiance",
                    "fiancee",
                    "fiancé",
                    "fiancée",
                    "spouse",
                    "mom",
                    "mother",
                    "dad",
                    "father",
                    "best friend",
                    "roommate");

    /** Words before a relation that make it no relation now, or not the speaker's. */
    private static final Set<String> NOT_NOW =
            Set.of("ex", "late", "former", "old", "future", "dead", "friend", "friends", "new");

    /** Capitalised words after a relation that are no name, beside {@link ValueHint#NOT_NAMES}. */
    private static final Set<String> NOT_NAMES =
            Set.of("Christmas", "Easter", "Tomorrow", "Yesterday", "And", "But", "Lol", "Omg");

    /** The relation {@code clause} names in passing, as {@code r}'s statement, if one. */
    static Optional<Read> of(Renderer r, String clause, Instant said) {
        if (!(clause.contains("my ") || clause.contains("My ") || clause.contains("our "))) {
            return Optional.empty();
        }
        Matcher m = MENTION.matcher(clause);
        if (!m.find()
                || NOT_NAMES.contains(m.group("name"))
                || ValueHint.NOT_NAMES.contains(m.group("name"))) {
            return Optional.empty();
        }
        String rel = m.group("rel").toLowerCase(Locale.ROOT);
        String first = rel.split(" ")[0];
        if (NOT_NOW.contains(first)) {
            return Optional.empty();
        }
        if (rel.contains(" ")
                && !Lexicons.RELATIONS.contains(rel)
                && !Lexicons.SINGLE_ROLES.contains(rel)) {
            // "my little sister Ana": the relation is the last word.
            rel = Phrases.lastWord(rel);
        }
        rel = SHORT.getOrDefault(rel, rel);
        // "my boss Karen", "my dentist Dr Hughes": one in a role is theirs too.
        boolean role = Lexicons.SINGLE_ROLES.contains(rel) && !rel.equals("company");
        if (!Lexicons.RELATIONS.contains(rel) && !role
                || rel.endsWith("s") && !rel.endsWith("ss")) {
            // "my kids Ana and Leo": a plural names no one alone.
            return Optional.empty();
        }
        String name = m.group("name");
        String text =
                ONE.contains(rel) || role
                        ? r.possessive() + " " + rel + " is " + name
                        : r.subject()
                                + " has "
                                + (rel.matches("[aeiou].*") ? "an " : "a ")
                                + rel
                                + " named "
                                + name;
        return Optional.of(new Read("relationship", MemoryType.SOCIAL, text, said, 0.7));
    }
}
