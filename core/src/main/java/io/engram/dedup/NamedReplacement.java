package io.engram.dedup;

import io.engram.extraction.statements.AmountInstead;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.NamedInstead;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.Memory;
import io.engram.memory.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a message carried by {@link NamedInstead} gives a new value of: the one current statement of
 * the speaker's whose value is a name the message names, when the message gives exactly one other
 * name, which no other memory of the speaker's holds ("finally out of wrexham!! keys to the new
 * place in Shrewsbury" after "Dana lives in Wrexham."). Two statements named, or two new names,
 * give nothing: a wrong reading would retire a value that still holds.
 */
final class NamedReplacement {

    private NamedReplacement() {}

    /**
     * The value {@code content} (said in {@code turns}) gives; never of a statement those turns
     * made themselves, which the message's other sentences only go on about.
     */
    static Optional<HintReader.Read> read(String content, List<String> turns, UserMemories known) {
        ValueHint message = ValueHint.parse(content);
        String text = message.sentence();
        List<String> names = NamedInstead.names(message.speaker(), text);
        HintReader.Read found = null;
        for (Memory m : known.valued()) {
            if (m.type() != MemoryType.SEMANTIC && m.type() != MemoryType.SOCIAL
                    || m.sourceTurnIds().stream().anyMatch(turns::contains)) {
                continue;
            }
            Optional<FactKey> key = FactKey.of(m.content());
            if (key.isEmpty()
                    || !key.get().subject().equalsIgnoreCase(message.speaker())
                    || !NamedInstead.replaceable(key.get().attribute())) {
                continue;
            }
            // "landlord jacked the rent AGAIN. 1625 from this month": an amount by its number.
            Optional<String> amount =
                    AmountInstead.of(key.get().attribute(), key.get().value(), text);
            if (amount.isPresent()) {
                if (found != null) {
                    return Optional.empty();
                }
                found = HintReader.Read.of(m, key.get(), amount.get());
                continue;
            }
            // A value that is a name ("Wrexham", "a 2014 Velaro hatchback"), not a role told
            // with one ("a junior dev at Monzo").
            if (names.isEmpty() || !NamedInstead.namedValue(key.get().quoted())) {
                continue;
            }
            List<String> words = NamedInstead.nameWords(key.get().quoted());
            if (words.isEmpty() || !NamedInstead.namesAny(text, words)) {
                continue;
            }
            // Names typed as names first; words typed in lower case only when none is one.
            List<String> others =
                    others(
                            NamedInstead.names(message.speaker(), text, false),
                            words,
                            m,
                            key.get(),
                            message,
                            known);
            if (others.isEmpty()) {
                others = others(names, words, m, key.get(), message, known);
            }
            if (others.size() != 1 || !FactKey.fits(key.get().attribute(), others.get(0))) {
                return Optional.empty();
            }
            if (found != null) {
                // Two statements named: which one changed is not told.
                return Optional.empty();
            }
            found = HintReader.Read.of(m, key.get(), HintReader.withThe(others.get(0), text));
        }
        return Optional.ofNullable(found);
    }

    /** The names of {@code names} that may be the new value of {@code m}'s. */
    private static List<String> others(
            List<String> names,
            List<String> words,
            Memory m,
            FactKey key,
            ValueHint message,
            UserMemories known) {
        String text = message.sentence();
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (!NamedInstead.namesAny(n, words)
                    && NamedInstead.apart(text, n, words)
                    && !HintReader.placedOtherwise(key.attribute(), n, message)
                    && !placeOfIt(key.attribute(), n, text)
                    && !heldElsewhere(n, m, known)) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * Whether {@code name} is where the new value is, not the value: "the 24hr place in Eastwood"
     * for a vet (a home is named so).
     */
    private static boolean placeOfIt(String attribute, String name, String text) {
        return !attribute.equals("residence")
                && HintReader.standsAfter("in|near|around|outside", name, text);
    }

    /**
     * Whether a memory of the speaker's other than {@code m} names {@code name}: a pet, a friend.
     */
    private static boolean heldElsewhere(String name, Memory m, UserMemories known) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (Memory other : known.valued()) {
            if (other != m && NamedInstead.namesAny(other.content(), List.of(lower))) {
                return true;
            }
        }
        return false;
    }
}
