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

    /** Someone new after a break-up: "been seeing this guy jonah", "dating Ana now". */
    private static final java.util.regex.Pattern PARTNER =
            joinedAfter(
                    "seeing(?: (?:this|a|some) (?:guy|girl|man|woman|lad|person))?(?: (?:called|named))?|dating|going out with|with (?:a|this) (?:guy|girl|man|woman|lad) (?:called|named)|(?:his|her|their) name(?:'s| is)");

    private static final java.util.regex.Pattern TYPED_PARTNER =
            TypedValues.slot(
                    "seeing (?:this|a|some) (?:guy|girl|man|woman|lad|person)(?: (?:called|named))?|seeing|dating|going out with|(?:a|this) (?:guy|girl|man|woman|lad) (?:called|named)|(?:his|her|their) name(?:'s| is)");

    /** A role held somewhere: "a swe at google", "a paralegal at Whitmore & Cole". */
    private static final java.util.regex.Pattern ROLE_AT =
            java.util.regex.Pattern.compile("(?i)^an? .+? at (?<org>.+)$");

    /** A club, band or team joined: "joined a hiking club instead". */
    private static final java.util.regex.Pattern CLUB_JOINED =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:joined|joining|signed up for|signed up to) (?<v>(?:an? |the )(?:[a-z-]+ ){1,3}(?:club|group|team|choir|band|league|society|guild|circle|orchestra))\\b");

    /** A statement of a club's membership: "Dana is in the local chess club." */
    private static final java.util.regex.Pattern IN_CLUB =
            java.util.regex.Pattern.compile(
                    "^(?<s>\\S+) is (?:in|a member of|part of) .*\\b(?:club|group|team|choir|band|league|society|guild|circle|orchestra)\\b.*$");

    /** Those one sees by name as "dr …": after one of them leaves, the one named next. */
    private static final java.util.Set<String> DOCTORS =
            java.util.Set.of(
                    "gp",
                    "doctor",
                    "dentist",
                    "therapist",
                    "psychiatrist",
                    "physio",
                    "counsellor",
                    "counselor",
                    "consultant",
                    "orthodontist",
                    "optician",
                    "vet");

    /** "moved me to dr hale", "seeing Dr. Okafor at Hillview now": the doctor named. */
    private static final java.util.regex.Pattern DOCTOR =
            java.util.regex.Pattern.compile("(?i)\\bdr\\.? (?<v>[\\p{L}][\\p{L}'-]+)");

    /** Words after "dr" that name no one. */
    private static final java.util.Set<String> NOT_A_DOCTOR =
            java.util.Set.of(
                    "seems",
                    "seemed",
                    "said",
                    "says",
                    "thinks",
                    "thought",
                    "told",
                    "wants",
                    "gave",
                    "put",
                    "reckons",
                    "reckoned",
                    "appointment",
                    "appt",
                    "visit",
                    "surgery",
                    "office",
                    "called",
                    "named",
                    "sent",
                    "moved",
                    "changed",
                    "retired",
                    "left",
                    "quit",
                    "referred",
                    "prescribed",
                    "upped");

    static Read of(Read left, ValueHint hint) {
        Optional<FactKey> key = FactKey.of(left.old().content());
        if (key.isEmpty()) {
            return joinedUnkeyed(left, hint);
        }
        String s = hint.sentence();
        if (DOCTORS.contains(left.attribute().toLowerCase(Locale.ROOT))) {
            // "dr okafor retired, they moved me to dr hale": the doctor other than the one left.
            List<String> named = new ArrayList<>();
            java.util.regex.Matcher dr = DOCTOR.matcher(s);
            while (dr.find()) {
                String w = dr.group("v").toLowerCase(Locale.ROOT);
                // "the new dr seems nice": no name.
                if (!io.engram.text.Text.STOPWORDS.contains(w) && !NOT_A_DOCTOR.contains(w)) {
                    named.add(dr.group("v"));
                }
            }
            String doctor = onlyOther(named, left.oldValue());
            return doctor == null
                    ? left
                    : Read.of(
                            left.old(),
                            key.get(),
                            "Dr. " + Character.toUpperCase(doctor.charAt(0)) + doctor.substring(1));
        }
        if (left.attribute().equals("relationship status")) {
            String partner = onlyOther(PARTNER.matcher(s), left.oldValue());
            if (partner == null) {
                partner = onlyOther(TypedValues.after(TYPED_PARTNER, s), left.oldValue());
            }
            return partner == null ? left : Read.of(left.old(), key.get(), partner);
        }
        java.util.regex.Matcher roleAt = ROLE_AT.matcher(left.oldValue());
        if (left.attribute().equals("occupation") && roleAt.matches()) {
            // "left google, im at a startup called Loomwork now": where the work is now.
            String org = roleAt.group("org");
            String value = onlyOther(JOINED_WORK.matcher(s), org);
            if (value == null) {
                value = onlyOther(TypedValues.after(TYPED_WORK, s), org);
            }
            return value == null
                    ? left
                    : new Read(
                            left.old(),
                            "workplace",
                            org,
                            value,
                            key.get().subject() + " works at " + value + ".");
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
        java.util.regex.Matcher club = IN_CLUB.matcher(content);
        java.util.regex.Matcher joined = CLUB_JOINED.matcher(hint.sentence());
        if (club.matches() && joined.find()) {
            // "left the chess club. joined a hiking club instead".
            String v = joined.group("v").toLowerCase(Locale.ROOT);
            return new Read(
                    left.old(),
                    left.attribute(),
                    left.oldValue(),
                    v,
                    club.group("s") + " is in " + v + ".");
        }
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
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group("v"));
        }
        return onlyOther(names, old);
    }
}
