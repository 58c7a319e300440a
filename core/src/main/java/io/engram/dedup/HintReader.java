package io.engram.dedup;

import io.engram.extraction.statements.Continuation;
import io.engram.extraction.statements.Departure;
import io.engram.extraction.statements.Ending;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.ShapedChange;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.Memory;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link ValueHint} gives a new value of, among the speaker's current memories: the one
 * memory whose attribute the sentence speaks of (by its words, or by naming its old value and
 * leaving it behind) and for which the sentence names exactly one other value of the same kind.
 * Anything less sure gives nothing: a wrong reading would retire a value that still holds.
 */
final class HintReader {

    private HintReader() {}

    /** How a departure's missing new value is written in the decision's reason. */
    private static final String LEFT_MARK = "(left: ";

    /**
     * More words a change of these attributes is told in than their statements use ("with the raise
     * I'm at $67k"): read for hints only, not for finding stale statements.
     */
    private static final Map<String, java.util.regex.Pattern> MORE_WORDS =
            Map.ofEntries(
                    words(
                            "salary",
                            "(?i)\\b(?:raise|(?:raised|bumped) me|pay|paid|earn|earning|making|income|paycheck)\\b"),
                    words(
                            "residence",
                            "(?i)\\b(?:ended up|closed on|house in|settled in(?:to)? (?-i:[A-Z])|neighbou?rhood|unpacked|keys to|new (?:place|apartment|flat|house|home|condo)|(?:place|apartment|flat|condo|home) in|residents?|locals?|people now)"),
                    words(
                            "workplace",
                            "(?i)\\b(?:hired|made the jump|jumped|working for|employer|(?:brought|took) me on (?:as|board)|onboarding at|orientation at|offer (?:with|from)|new (?:manager|boss|team|coworkers|colleagues|job|role|gig|office) at)\\b"),
                    words("car", "(?i)\\b(?:upgraded|leased|traded up)\\b"),
                    words("phone", "(?i)\\b(?:iphone|android|pixel|galaxy|samsung|cell|mobile)\\b"),
                    words("occupation", "(?i)\\b(?:promoted|promotion|title|role|position)\\b"),
                    words("doctor", "(?i)\\b(?:docs?|gp|physician|primary care)\\b"),
                    words("carrier", "(?i)\\b(?:ported|network|sim|esim|plan)\\b"),
                    words("gym", "(?i)\\b(?:fitness|membership|work(?:ing)? out|lifting)\\b"),
                    words(
                            "team",
                            "(?i)\\b(?:fan|root(?:ing)? for|support(?:ing|er)?|allegiances?)\\b"),
                    words("bank", "(?i)\\b(?:accounts?|checking|savings|fees|banking)\\b"));

    /** {@code value} with the "The" that begins it in {@code text}: "a place called The Crag". */
    static String withThe(String value, String text) {
        return text.contains("The " + value) ? "The " + value : value;
    }

    private static Map.Entry<String, java.util.regex.Pattern> words(String head, String regex) {
        return Map.entry(head, java.util.regex.Pattern.compile(regex));
    }

    private static boolean moreWords(FactKey key, String sentence) {
        String a = key.attribute().toLowerCase(Locale.ROOT);
        String head = a.substring(a.lastIndexOf(' ') + 1);
        String words =
                head.equals("pay") || head.equals("income")
                        ? "salary"
                        : head.equals("title") ? "occupation" : head;
        java.util.regex.Pattern p = MORE_WORDS.get(words);
        // "baldurs gate 3 has replaced it as my all time fav": a favorite, said without its noun.
        if (a.matches("^fav(?:ou?rite|e)? .*") && FAVORITE.matcher(sentence).find()) {
            return true;
        }
        if (words.equals("workplace")
                && FIRST_AT.matcher(sentence).find()
                && AT_WORK.matcher(sentence).find()) {
            // "first week at Stripe, my team is great" - not "first day at Disneyland".
            return true;
        }
        return p != null && p.matcher(sentence).find();
    }

    /** The first days somewhere, which are a new job's only among words of work. */
    private static final java.util.regex.Pattern FIRST_AT =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:first|1st) (?:day|week|month) (?:at|with)\\b");

    private static final java.util.regex.Pattern AT_WORK =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:job|work|team|boss|manager|coworkers?|colleagues?|office|onboarding|role|desk|badge|laptop|shift|training|hr|payroll)\\b");

    /** A count, the value of a "number of" attribute. */
    private static final java.util.regex.Pattern COUNT =
            java.util.regex.Pattern.compile(
                    "(?i)\\d{1,3}|no|none|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve");

    /** A favorite, in any of its spellings. */
    private static final java.util.regex.Pattern FAVORITE =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:fav|fave|favou?rite|all[- ]time|number one|go-to)\\b|#1\\b");

    /** Words that give an email or a number as the speaker's own. */
    private static final java.util.regex.Pattern CONTACT =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:(?:reach|contact|text|call|email|e-mail|message) me|for me|(?:please )?use (?=\\S+@)|going forward|from now on|send (?:\\w+ ){0,3}to|my (?:new )?(?:email|e-mail|address|number|phone|cell)|(?:got|have) a new (?:phone )?(?:number|email|e-mail)|(?:new|different|changed|updated) (?:phone )?(?:number|email|e-mail|cell)|(?:switched|moved|changed) (?:over )?to (?=\\S+@)|save (?:it|this|that))\\b");

    /** Words of someone new in one's life, for a relationship status. */
    private static final java.util.regex.Pattern PARTNER =
            java.util.regex.Pattern.compile(
                    "(?i)\\b(?:girlfriend|boyfriend|partner|together|dating|seeing|met someone)\\b");

    /**
     * The memory a hint changes, what it gave the value of, its old value and the new one, and the
     * sentence stored in its place.
     */
    record Read(Memory old, String attribute, String oldValue, String value, String sentence) {

        /** Whether the old value was left with no new one read ("quit salesforce"). */
        boolean departure() {
            return value.startsWith(LEFT_MARK);
        }

        /** The new value in the words the old one was stored in. */
        static Read of(Memory old, FactKey key, String value) {
            String sentence =
                    key.attribute().equals("relationship status")
                            ? key.subject() + " is dating " + value + "."
                            // "Dana goes to Equinox": a gym gone to stays one.
                            : old.content().startsWith(key.subject() + " goes to ")
                                    ? key.subject() + " goes to " + value + "."
                                    : key.sentence(asTheOldOne(key, value));
            return new Read(old, key.attribute(), key.value(), value, sentence);
        }

        /**
         * The new value written as the old one was: "a MacBook Pro" where "a ThinkPad" stood,
         * "$68k" where "$60,000" did.
         */
        private static String asTheOldOne(FactKey key, String v) {
            String old = key.value();
            // "1650" after "$1,400 a month": "$1,650 a month", as FactKey writes an amount.
            if (old.matches("^[$€£].*") && v.matches("^[$€£]?\\d.*")) {
                if (!Character.isDigit(v.charAt(0)) && v.charAt(0) != old.charAt(0)) {
                    return v;
                }
                String digits = Character.isDigit(v.charAt(0)) ? v : v.substring(1);
                String cased =
                        new FactKey(key.subject(), key.attribute(), digits).casedAs(key).value();
                return cased.equals(digits) ? old.charAt(0) + digits : cased;
            }
            if (!old.matches("(?i)^an? .+") || v.matches("(?i)^(?:an?|the) .+")) {
                return v;
            }
            return (v.matches("(?i)^[aeiou].*") ? "an " : "a ") + v;
        }
    }

    /**
     * "Rocky died in April", when exactly one current memory tells of the speaker's pet or relative
     * of that name: that memory, ended in its words ("Dana's dog Rocky died in April 2026.").
     */
    private static Optional<Read> ended(Ending ending, UserMemories known) {
        Read found = null;
        for (Memory m : known.valued()) {
            Optional<String> relation = ending.relationIn(m.content());
            Ending stored = ending.spelledAsIn(m.content());
            if (relation.isEmpty()) {
                continue;
            }
            if (found != null) {
                return Optional.empty();
            }
            found =
                    new Read(
                            m,
                            relation.get(),
                            stored.name(),
                            ending.verb(),
                            stored.sentence(relation.get()));
        }
        return Optional.ofNullable(found);
    }

    /**
     * The memory {@code hint}, said at {@code said}, gives a new value of; else the one it ends
     * ("Rocky died in April"), if exactly one.
     */
    static Optional<Read> read(String content, Instant said, UserMemories known) {
        // "quit crumbs today!! starting at Hollow Oak Coffee": the value may be in the sentence
        // that goes on with the hint's; what ends is read in the hint's own.
        int tail = content.indexOf(Continuation.TAIL);
        ValueHint hint = ValueHint.parse(tail < 0 ? content : content.substring(0, tail));
        ValueHint whole =
                tail < 0
                        ? hint
                        : new ValueHint(
                                hint.speaker(),
                                hint.sentence() + " " + content.substring(tail + 1));
        Optional<Read> changed = read(whole, known);
        if (changed.isPresent()) {
            return changed;
        }
        Optional<Read> ended =
                Ending.of(hint.speaker(), hint.sentence(), said).flatMap(e -> ended(e, known));
        if (ended.isPresent()) {
            return ended;
        }
        return Departure.of(hint.speaker(), hint.sentence(), said)
                .flatMap(d -> left(d, known))
                .map(r -> JoinedValue.of(r, whole));
    }

    /**
     * "cancelled my planet fitness membership", when exactly one current memory of the speaker's
     * has a value those words name ("Dana goes to Planet Fitness"): that memory, ended ("Dana no
     * longer goes to Planet Fitness.").
     */
    private static Optional<Read> left(Departure departure, UserMemories known) {
        List<Read> keyed = new ArrayList<>();
        List<Read> unkeyed = new ArrayList<>();
        for (Memory m : known.valued()) {
            // What someone has or does, not what happened once ("Dana went to Boston in May").
            if (m.type() != MemoryType.SEMANTIC && m.type() != MemoryType.SOCIAL) {
                continue;
            }
            Optional<FactKey> key = FactKey.of(m.content());
            // "my car got totaled" names the car by what it is, not by its make.
            boolean named =
                    key.isPresent()
                            ? key.get().subject().equalsIgnoreCase(departure.subject())
                                    && (departure.names(key.get().quoted())
                                            || departure
                                                    .left()
                                                    .equalsIgnoreCase(key.get().attribute()))
                            : departure.namedIn(m.content());
            Optional<String> negated =
                    named ? departure.ending(m.content(), key) : Optional.empty();
            if (negated.isEmpty()) {
                continue;
            }
            String attribute = key.map(FactKey::attribute).orElse("what " + m.content() + " says");
            String old = key.map(FactKey::value).orElse(departure.left());
            Read read =
                    new Read(m, attribute, old, LEFT_MARK + departure.left() + ")", negated.get());
            (key.isPresent() ? keyed : unkeyed).add(read);
        }
        // Exactly one: a statement with a value first, else one in other words.
        if (keyed.size() == 1) {
            return Optional.of(keyed.get(0));
        }
        return keyed.isEmpty() && unkeyed.size() == 1
                ? Optional.of(unkeyed.get(0))
                : Optional.empty();
    }

    private static Optional<Read> read(ValueHint hint, UserMemories known) {
        List<ValueHint.Named> named = hint.named();
        ShapedChange.Told told = ShapedChange.in(hint.sentence());
        Map<String, Read> found = new LinkedHashMap<>();
        for (Memory m : known.valued()) {
            Optional<FactKey> key = FactKey.of(m.content());
            if (key.isEmpty() || !key.get().subject().equalsIgnoreCase(hint.speaker())) {
                continue;
            }
            String old = key.get().quoted();
            boolean mentioned = hint.mentions(old);
            // Named apart from the new value: "upgraded to the iPhone 15" names "iPhone" only in
            // the new one.
            if (hint.mentionsApartFrom(old, named) && !hint.leavesBehind()) {
                // "My team at Boeing now works with SpaceX": the old value still holds.
                return Optional.empty();
            }
            boolean partner = key.get().attribute().equals("relationship status");
            ValueHint.Kind kind = partner ? ValueHint.Kind.NAME : ValueHint.kindOf(old);
            // "scale said 88.4kg", "£36.5k now": a weight or an amount, by its shape.
            List<String> shaped = told.of(key.get().attribute());
            if (!shaped.isEmpty()) {
                List<String> others = shaped.stream().filter(v -> !same(v, old)).toList();
                if (others.size() == 1) {
                    found.put(key.get().attribute(), Read.of(m, key.get(), others.get(0)));
                }
                continue;
            }
            if (kind == null) {
                continue;
            }
            // An email or a phone number is the only value of its kind a person has, said as
            // theirs ("for me", "reach me at"); anything else must be spoken of in its
            // attribute's words.
            boolean contact = kind == ValueHint.Kind.EMAIL || kind == ValueHint.Kind.PHONE;
            boolean spokenOf =
                    mentioned
                            || contact && CONTACT.matcher(hint.sentence()).find()
                            || !contact
                                    && ((partner ? PARTNER : key.get().cuePattern())
                                                    .matcher(hint.sentence())
                                                    .find()
                                            || moreWords(key.get(), hint.sentence()));
            if (!spokenOf) {
                continue;
            }
            // "moved over to youtube music": a place typed in lower case is no move unless its
            // statement reads one (with its time).
            boolean place = key.get().attribute().equals("residence");
            List<String> values =
                    named.stream()
                            .filter(
                                    n ->
                                            n.kind() == kind && !(place && n.typed())
                                                    || amount(kind, n))
                            .map(ValueHint.Named::text)
                            .filter(v -> !same(v, old))
                            .filter(v -> FactKey.fits(key.get().attribute(), v))
                            .filter(v -> !placedOtherwise(key.get().attribute(), v, hint))
                            // "whippet called sage": a name is no count of dogs.
                            .filter(
                                    v ->
                                            !key.get().attribute().startsWith("number of ")
                                                    || COUNT.matcher(v).matches())
                            .distinct()
                            .toList();
            if (values.size() == 1) {
                found.put(
                        key.get().attribute(),
                        Read.of(m, key.get(), withThe(values.get(0), hint.sentence())));
            }
        }
        if (found.size() == 1) {
            return Optional.of(found.values().iterator().next());
        }
        // Several: the one whose old value the sentence names, if one alone.
        List<Read> left = new ArrayList<>();
        for (Read r : found.values()) {
            if (hint.mentions(FactKey.quoted(r.attribute(), r.oldValue()))) {
                left.add(r);
            }
        }
        return left.size() == 1 ? Optional.of(left.get(0)) : Optional.empty();
    }

    /**
     * Whether {@code value} stands where a value of another attribute does: "time off in Lisbon" is
     * no employer, "at Google" no home.
     */
    static boolean placedOtherwise(String attribute, String value, ValueHint hint) {
        String before =
                switch (attribute) {
                    case "workplace" -> "in|near";
                    case "residence" -> "at|for|with";
                    default -> null;
                };
        return before != null && standsAfter(before, value, hint.sentence());
    }

    /**
     * Whether {@code value} follows one of the words {@code before} (alternatives) in {@code text}.
     */
    static boolean standsAfter(String before, String value, String text) {
        return java.util.regex.Pattern.compile(
                        "(?i)\\b(?:" + before + ")\\s+" + java.util.regex.Pattern.quote(value))
                .matcher(text)
                .find();
    }

    /**
     * "landlord raised rent to 1650": an amount said without its currency, where the old value had
     * one (three digits or more, so not a count).
     */
    private static boolean amount(ValueHint.Kind kind, ValueHint.Named n) {
        return kind == ValueHint.Kind.MONEY
                && n.kind() == ValueHint.Kind.NUMBER
                && n.text().matches("\\d{1,3}(?:,\\d{3})+|\\d{3,}|\\d{2,3}(?:\\.\\d)?k");
    }

    static boolean same(String a, String b) {
        String x = plain(a);
        String y = plain(b);
        return x.equals(y) || x.contains(y) || y.contains(x);
    }

    /** "Dr. Ferreira's" is "dr ferreira": no article, full stop or possessive. */
    private static String plain(String value) {
        return value.toLowerCase(Locale.ROOT)
                .replaceFirst("^(?:an?|the) ", "")
                .replace(".", "")
                .replaceAll("['’]s?\\b", "")
                .strip();
    }
}
