package io.engram.dedup;

import io.engram.dedup.HintReader.Read;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.TypedValues;
import io.engram.extraction.statements.ValueHint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "I left figma, I'm at Canva now", "cancelled planet fitness and joined Brooklyn Boulders": a
 * value left, and the one other name the sentence gives where a new one of its kind stands (at,
 * with, joined, switched to, bought...), is that value, not "no longer". A home is left only by a
 * move, which its own statement reads.
 */
final class JoinedValue {

    private JoinedValue() {}

    /**
     * A name where a new value stands after a leaving. Where an employer stands, not a place ("time
     * off in Lisbon"); "for" only of work ("left Acme for Globex", not "cancelled it to save for
     * Hawaii").
     */
    private static final java.util.regex.Pattern JOINED_WORK =
            joinedAfter("at|joined|joining|join|for");

    private static final java.util.regex.Pattern JOINED =
            joinedAfter(
                    "joined|joining|join|signed up (?:at|with|for)|switched to|moved to|went with|banking with|bought|got|picked up|replaced (?:it|them|her|him) with|traded (?:it |them )?(?:in )?for");

    /**
     * Where a new value stands typed in lower case, once a leaving is read: "left shopify. just
     * started at stripe this week", "ditched barclays, everything's w monzo now".
     */
    private static final java.util.regex.Pattern TYPED_WORK =
            TypedValues.slot(
                    "started at|starting at|start at|joined|joining|now at|i'm at|im at|i am at|working at|work at|moved to|switched to|over to");

    private static final java.util.regex.Pattern TYPED =
            TypedValues.slot(
                    "joined|joining|signed up (?:at|with|for)|switched to|moved to|went with|banking with|(?:bought|got|picked up|traded (?:[\\w-]+ ){0,3}?for|swapped (?:[\\w-]+ ){0,3}?for)(?= (?:an?|the) )|now at|i'm at|im at|i am at|w/?|with|doing|just");

    /**
     * A name after one of {@code slot}'s words, past an article, a word of its age ("a used Kia
     * Niro", "a 2019 Mazda 3") or what it is ("a bouldering gym called The Crag").
     */
    private static java.util.regex.Pattern joinedAfter(String slot) {
        return java.util.regex.Pattern.compile(
                "(?i)\\b(?:"
                        + slot
                        + ") (?:an? |the |my )?(?:(?:used|second-?hand|new|brand new|pre-owned|certified|(?:19|20)\\d\\d) )?(?:(?-i:[a-z][\\p{L}-]+ ){1,3}(?:called|named) )?(?<v>(?-i:[A-Z][\\p{L}0-9&.'+-]*(?: [A-Z0-9][\\p{L}0-9&.'+-]*){0,3}))");
    }

    static Read of(Read left, ValueHint hint) {
        Optional<FactKey> key = FactKey.of(left.old().content());
        if (key.isEmpty()) {
            return joinedUnkeyed(left, hint);
        }
        if (left.attribute().equals("residence")
                || ValueHint.kindOf(left.oldValue()) != ValueHint.Kind.NAME) {
            return left;
        }
        boolean work = left.attribute().equals("workplace");
        String value =
                onlyOther((work ? JOINED_WORK : JOINED).matcher(hint.sentence()), left.oldValue());
        if (value == null) {
            value =
                    onlyOther(
                            TypedValues.after(work ? TYPED_WORK : TYPED, hint.sentence()),
                            left.oldValue());
        }
        return value == null ? left : Read.of(left.old(), key.get(), value);
    }

    /**
     * "cancelled anytime fitness, signed up at a place called The Crag" against "Dana goes to
     * Anytime Fitness.", a statement of no known shape: the new name where the old one stood.
     */
    private static Read joinedUnkeyed(Read left, ValueHint hint) {
        String content = left.old().content();
        int at = content.toLowerCase(Locale.ROOT).indexOf(left.oldValue().toLowerCase(Locale.ROOT));
        if (at <= 0) {
            return left;
        }
        String stored = content.substring(at, at + left.oldValue().length());
        if (ValueHint.kindOf(stored) != ValueHint.Kind.NAME) {
            return left;
        }
        String value = onlyOther(JOINED.matcher(hint.sentence()), stored);
        return value == null
                ? left
                : new Read(
                        left.old(),
                        left.attribute(),
                        stored,
                        value,
                        content.substring(0, at) + value + content.substring(at + stored.length()));
    }

    /** The one name other than {@code old} among {@code names}, or null. */
    private static String onlyOther(List<String> names, String old) {
        List<String> others =
                names.stream().filter(v -> !HintReader.same(v, old)).distinct().toList();
        return others.size() == 1 ? others.get(0) : null;
    }

    /** The one name the slots give other than {@code old}, or null. */
    private static String onlyOther(java.util.regex.Matcher m, String old) {
        List<String> others = new ArrayList<>();
        while (m.find()) {
            String v = m.group("v");
            if (!HintReader.same(v, old) && !others.contains(v)) {
                others.add(v);
            }
        }
        return others.size() == 1 ? others.get(0) : null;
    }
}
