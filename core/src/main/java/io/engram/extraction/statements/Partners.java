package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A partner named as a relation ("Dana's wife is Sara", "Dana's girlfriend is called Priya",
 * "Dana's husband's name is Mark") gives the relationship status "Dana is married to Sara" gives:
 * one attribute, however it was said, so a break-up or a divorce ends it.
 */
final class Partners {

    private Partners() {}

    /** A person's name: one or two capitalised words. */
    private static final Pattern NAME = Pattern.compile("^[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?$");

    /** A partner named as a relation, and the status that names them. */
    private static final Map<String, String> STATUS =
            Map.of(
                    "boyfriend", "dating",
                    "girlfriend", "dating",
                    "partner", "dating",
                    "wife", "married to",
                    "husband", "married to",
                    "spouse", "married to",
                    "fiance", "engaged to",
                    "fiancee", "engaged to",
                    "fiancé", "engaged to",
                    "fiancée", "engaged to");

    /** The status key of {@code subject}'s {@code relation} named {@code value}, if a partner. */
    static Optional<FactKey> status(String subject, String relation, String value) {
        String status =
                STATUS.get(relation.toLowerCase(Locale.ROOT).replaceFirst("['’]s name$", ""));
        if (status == null || !NAME.matcher(value).matches()) {
            return Optional.empty();
        }
        return Optional.of(new FactKey(subject, "relationship status", status + " " + value));
    }
}
