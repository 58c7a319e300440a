package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a person lives, as they introduce themselves: "I smoke about a pack a day", "My son goes to
 * Lincoln Elementary", "I live with my parents", "I work from home full time", "I'm using a Pixel
 * 6", "I'm subscribed to Netflix", "I rent a flat in Shoreditch".
 */
final class Circumstances {

    private Circumstances() {}

    /** "I smoke about a pack a day", "i vape". */
    private static final Pattern SMOKES =
            Pattern.compile(
                    "(?i)^I (?:still |currently |usually )?(?<verb>smoke|vape)(?<how> (?:about |around |like |roughly )?(?:a|half a|\\d+|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|a few|a couple of)(?: [a-z-]+){1,2} (?:a|per|every) (?:day|night|week))?$");

    /** "My son goes to Lincoln Elementary", "my kids go to st anne's primary". */
    private static final Pattern SCHOOL =
            Pattern.compile(
                    "(?i)^my (?<who>son|daughter|kids|children|twins|boy|girl|eldest|youngest)(?: (?<name>(?-i:[A-Z])[\\p{L}'-]+))? (?:goes|go|is|are) (?:to|at) (?<school>[\\p{L}0-9'. -]{2,40}?\\b(?:school|primary|elementary|middle|high|academy|daycare|day care|nursery|preschool|pre-school|kindergarten|montessori|college|prep))$");

    /** "I live with my parents", "I live with two housemates, Tom and Jess". */
    private static final Pattern LIVES_WITH =
            Pattern.compile(
                    "(?i)^I (?:still )?(?:live|am living|share (?:a|an|my) (?:flat|apartment|house|place) with) ?(?:with )?(?<who>my (?:parents|mum|mom|dad|mother|father|grandparents|partner|boyfriend|girlfriend|wife|husband|sister|brother|family|friend (?-i:[A-Z])[\\p{L}'-]+|friends)|(?:a|one|two|three|four|\\d) (?:housemates?|flatmates?|roommates?)(?:, (?-i:[A-Z])[\\p{L}'-]+ and (?-i:[A-Z])[\\p{L}'-]+)?)$");

    /** "I work from home full time", "i work remotely". */
    private static final Pattern REMOTE =
            Pattern.compile(
                    "(?i)^I (?:now |currently |mostly )?(?:work|am working) (?<how>from home|remotely|remote)(?<much> full[- ]time| part[- ]time| \\w+ days a week)?$");

    /** "I'm using a Pixel 6": the phone. */
    private static final Pattern USING_PHONE =
            Pattern.compile(
                    "^I am (?:now |currently |still )?using (?<v>an? (?:iPhone|Pixel|Galaxy|Samsung|OnePlus|Motorola|Nokia|Xiaomi)\\b[\\p{L}0-9 +]{0,20}?)$");

    /** "I'm subscribed to Netflix", "Xbox Game Pass is my only subscription". */
    private static final Pattern SUBSCRIBED =
            Pattern.compile(
                    "^(?:I am subscribed to |I subscribe to )(?<v>[A-Z][\\p{L}0-9+&'-]*(?: [A-Z0-9][\\p{L}0-9+&'-]*){0,2})$|^(?<only>[A-Z][\\p{L}0-9+&'-]*(?: [A-Z0-9][\\p{L}0-9+&'-]*){0,2}) is my (?:only )?subscription$");

    /** "I rent a flat in Shoreditch": where one lives. */
    private static final Pattern RENTS_IN =
            Pattern.compile(
                    "(?i)^I (?:rent|own|have|am renting) (?:an? |my )?(?:[a-z-]+ )?(?:flat|apartment|house|place|condo|studio|home) in (?<place>(?-i:[A-Z])[\\p{L}.' -]{1,40})$");

    /** Words every shape here is told with: a cheap test before the patterns. */
    private static final String[] CUES = {
        "smoke", "vape", " goes ", " go ", " live", "share", " work", "using", "subscri", " rent",
        " own "
    };

    /** The circumstance {@code c} tells of, if it is one of these shapes. */
    static Optional<Read> read(Renderer r, String c, Instant said) {
        if (c.length() < 8) {
            return Optional.empty();
        }
        char first = Character.toLowerCase(c.charAt(0));
        if (first != 'i' && first != 'm' && !Character.isUpperCase(c.charAt(0))
                || !io.engram.text.Text.containsAny(c, CUES)) {
            return Optional.empty();
        }
        Matcher m;
        if ((m = SMOKES.matcher(c)).matches()) {
            String how = m.group("how") == null ? "" : m.group("how");
            return Optional.of(
                    Read.of(
                            "health",
                            r.subject() + " " + m.group("verb").toLowerCase() + "s" + how,
                            said,
                            0.65));
        }
        if ((m = SCHOOL.matcher(c)).matches()) {
            String name = m.group("name") == null ? "" : " " + m.group("name");
            String who = m.group("who").toLowerCase();
            String verb = who.matches("kids|children|twins") ? " go to " : " goes to ";
            return Optional.of(
                    Read.of(
                            "family",
                            r.possessive() + " " + who + name + verb + m.group("school"),
                            said,
                            0.7));
        }
        if ((m = LIVES_WITH.matcher(c)).matches()) {
            return Optional.of(
                    Read.of(
                            "home",
                            r.subject() + " lives with " + r.thirdPerson(m.group("who")),
                            said,
                            0.65));
        }
        if ((m = REMOTE.matcher(c)).matches()) {
            String much = m.group("much") == null ? "" : m.group("much");
            return Optional.of(
                    Read.of("work", r.subject() + " works from home" + much, said, 0.65));
        }
        if ((m = USING_PHONE.matcher(c)).matches()) {
            return Optional.of(
                    Read.of("attribute", r.subject() + " uses " + m.group("v"), said, 0.7));
        }
        if ((m = SUBSCRIBED.matcher(c)).matches()) {
            String v = m.group("v") != null ? m.group("v") : m.group("only");
            return Optional.of(Read.of("attribute", r.subject() + " has " + v, said, 0.6));
        }
        if ((m = RENTS_IN.matcher(c)).matches()) {
            return StatementReaders.place(r.alone(), m.group("place"), said, false);
        }
        return Optional.empty();
    }
}
