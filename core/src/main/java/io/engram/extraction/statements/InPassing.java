package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Optional;

/**
 * What a clause tells of the speaker by the way, beside or instead of what it states: who it names
 * ("my husband Rob is obsessed with his air fryer": Dana's husband is Rob), a provider told by what
 * it did ("my monzo card got declined"), where one lives or works told by what of theirs is there
 * ("our landlord in peckham"), a car or phone named by its model ("my fiesta is making that noise
 * again"). Providers and places are read only when the clause states nothing else; each is marked
 * {@link Statement#IN_PASSING} but for who is named, which is a relationship like any other.
 */
final class InPassing {

    private InPassing() {}

    /**
     * What {@code clause} tells in passing, given the kind of what it stated ({@code statedKind},
     * null when nothing).
     */
    static Optional<Read> of(Renderer r, String clause, Instant said, String statedKind) {
        Optional<Read> named = Mentions.of(r, clause, said);
        if (named.isPresent()) {
            // Beside a statement of another kind ("… is coming up" and "has a brother named …").
            return named.filter(x -> !x.kind().equals(statedKind));
        }
        if (statedKind == null) {
            Optional<Read> told =
                    Providers.of(r, clause, said).or(() -> PassingPlaces.of(r, clause, said));
            if (told.isPresent()) {
                return told.map(InPassing::passing);
            }
        }
        return clause.contains("my ")
                ? Belongings.of(r, clause, said).map(InPassing::passing)
                : Optional.empty();
    }

    private static Read passing(Read x) {
        return new Read(Statement.IN_PASSING, x.type(), x.text(), x.validFrom(), x.importance());
    }
}
