package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import io.engram.text.WordLists;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bank, phone carrier, broadband provider, gym or streaming service told in passing, by its name
 * in {@code providers.txt}: "my monzo card got declined", "my sky broadband is down again", "im on
 * ee", "santander froze my card". Chat rarely says "I bank with Monzo"; it says what the card did.
 * Only the speaker's own one is read: "my" right before the name, "I'm with/on" it, or it doing
 * something to "me" or "my" card; a name that is also an everyday word ("Sky", "Three") only with
 * its service's noun after it. A clause that leaves, cancels or only plans one gives nothing.
 */
final class Providers {

    private Providers() {}

    /** How a kind is stored, and the nouns its service goes by. */
    private record Kind(String name, String nouns, String sentence) {}

    private static final List<Kind> KINDS =
            List.of(
                    new Kind(
                            "bank",
                            "card|debit card|credit card|account|current account|app|bank|overdraft|savings",
                            "%s banks with %s"),
                    new Kind(
                            "carrier",
                            "contract|sim|signal|data|plan|network|phone bill|coverage|reception",
                            "%s's phone carrier is %s"),
                    new Kind(
                            "broadband",
                            "broadband|wifi|wi-fi|internet|fibre|fiber|router|hub|box",
                            "%s's broadband provider is %s"),
                    new Kind("gym", "membership|gym|classes|class|pass", "%s's gym is %s"),
                    new Kind(
                            "streaming",
                            "subscription|account|membership|premium|family|plan|login|password",
                            "%s has %s"));

    /** Each provider's name in lower case, to the name as written and its kind. */
    private record Named(String written, Kind kind, boolean everyday) {}

    private static final Map<String, Named> NAMES = new HashMap<>();

    /** Per kind: its names (plain, then every one), longest first, as one alternation. */
    private static final Map<String, Pattern[]> FORMS = new HashMap<>();

    /** Words that make the provider not the speaker's now. */
    private static final Pattern NOT_NOW =
            Pattern.compile(
                    "(?i)\\b(?:not|never|no longer|don['’]?t|dont|cancell?(?:ed|ing)?|closed|closing|left|leaving|quit|switch(?:ed|ing)? (?:from|away)|moving from|used to|ex|old|former|thinking|considering|might|maybe|should|would|could|if|wish|want|wanna|gonna|going to|about to)\\b");

    static {
        Map<String, Set<String>> lists = WordLists.sections(Providers.class, "providers.txt");
        for (Kind kind : KINDS) {
            List<String> plain = new ArrayList<>();
            List<String> all = new ArrayList<>();
            for (String entry : lists.get(kind.name())) {
                boolean everyday = entry.endsWith("*");
                String written = everyday ? entry.substring(0, entry.length() - 1) : entry;
                NAMES.put(written.toLowerCase(Locale.ROOT), new Named(written, kind, everyday));
                all.add(Pattern.quote(written));
                if (!everyday) {
                    plain.add(Pattern.quote(written));
                }
            }
            Comparator<String> longest = Comparator.comparingInt(String::length).reversed();
            plain.sort(longest);
            all.sort(longest);
            String p = "(?<p>" + String.join("|", plain) + ")";
            String a = "(?<p>" + String.join("|", all) + ")";
            String nouns = "(?<noun>" + kind.nouns() + ")";
            FORMS.put(
                    kind.name(),
                    new Pattern[] {
                        // "my monzo card", "our sky broadband", "my netflix".
                        Pattern.compile(
                                "(?i)\\b(?:my|our) (?:new )?"
                                        + a
                                        + "(?:['’]s)?(?: "
                                        + nouns
                                        + ")?\\b"),
                        // "im on ee", "I'm with Vodafone".
                        Pattern.compile(
                                "(?i)\\b(?:i['’]?m|i am|we['’]?re|we are) (?:now |still |currently )?(?:with|on|w) "
                                        + p
                                        + "\\b"),
                        // "santander froze my card", "vodafone have charged me".
                        Pattern.compile(
                                "(?i)\\b"
                                        + a
                                        + " (?:have |has |just |literally )?(?:froze|frozen|declined|charged|billed|blocked|cut off|put up|upped|raised) (?:my|me|our|us)\\b(?! \\p{L}+['’]s\\b)"),
                        // "virgin media put my bill up", "EE is useless on my road".
                        Pattern.compile(
                                "(?i)\\b"
                                        + a
                                        + " (?:(?:have |has )?put (?:my|our) \\p{L}+ up|(?:\\S+ ){1,4}?(?:on|at|in|for|to) my (?:road|street|flat|house|place|area|phone|bill|card|account|signal|data|router)\\b)"),
                        // "nationwide app wont let me log in".
                        Pattern.compile(
                                "(?i)\\b"
                                        + a
                                        + " (?<noun>app|card) (?:wont|won['’]t|will not|isnt|isn['’]t|keeps|kept|got|was|is|froze|crashed|declined)\\b[^.!?]*\\b(?:me|my)\\b")
                    });
        }
    }

    /** The provider {@code clause} tells the speaker has, as {@code r}'s statement, if one. */
    static Optional<Read> of(Renderer r, String clause, Instant said) {
        for (Kind kind : KINDS) {
            for (Pattern form : FORMS.get(kind.name())) {
                Matcher m = form.matcher(clause);
                if (!m.find()) {
                    continue;
                }
                // "thinking of switching to monzo", "closed my barclays account": near the name.
                String around =
                        clause.substring(
                                Math.max(0, m.start() - 40),
                                Math.min(clause.length(), m.end() + 12));
                if (NOT_NOW.matcher(around).find()) {
                    return Optional.empty();
                }
                Named named = NAMES.get(m.group("p").toLowerCase(Locale.ROOT));
                boolean noun = form.pattern().contains("?<noun>") && m.group("noun") != null;
                // "EE is useless": an everyday word written as the name's capitals is the name.
                boolean capitals =
                        named != null
                                && named.written().equals(m.group("p"))
                                && named.written().equals(named.written().toUpperCase(Locale.ROOT));
                if (named == null || named.everyday() && !noun && !capitals) {
                    continue;
                }
                return Optional.of(
                        new Read(
                                "attribute",
                                MemoryType.SEMANTIC,
                                String.format(kind.sentence(), r.subject(), named.written())
                                        .replace(r.subject() + "'s", r.possessive()),
                                said,
                                0.7));
            }
        }
        return Optional.empty();
    }
}
