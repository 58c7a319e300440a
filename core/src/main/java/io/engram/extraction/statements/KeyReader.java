package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@link FactKey} back from the words of a fact: the few sentence shapes {@link
 * StatementExtractor} writes a value in ("Dana lives in Denver", "Dana's budget for the trip is
 * $10,000", "Dana no longer works at Acme").
 */
final class KeyReader {

    private KeyReader() {}

    private static final Pattern POSSESSIVE =
            Pattern.compile(
                    "^(?<s>.+?)['’]s (?<a>[^.]{1,80}?) (?:is|are) (?:now )?(?<v>[^.].*?)\\.?$");

    private static final Pattern LIVES =
            Pattern.compile(
                    "^(?<s>.+?) (?:lives in|moved (?:across (?:town|the city) |back |over )?to) (?:(?:an?|the|their) (?:new |small |tiny |big |studio )?(?:apartment|house|flat|condo|studio|place|home|townhouse) (?:in|downtown in) )?(?<v>[^.]+?)(?: (?:on|in|around) .*)?\\.?$");
    private static final Pattern WORKS_AT =
            Pattern.compile(
                    "^(?<s>.+?) (?:works at|no longer works at) (?<v>[^.]+?)(?: as .*)?\\.?$");
    private static final Pattern WORKS_AS =
            Pattern.compile("^(?<s>.+?) works as (?<v>[^.]+?)\\.?$");

    /** "Dana is a nurse at St. Mary's": an occupation, when its last word is a role. */
    private static final Pattern IS_ROLE =
            Pattern.compile(
                    "^(?<s>[^ ]+(?: [^ ]+)?) is (?<v>an? (?:[\\p{L}-]+ ){0,3}?(?<role>[\\p{L}-]+)(?: (?:at|for|with|in|on) [^.]*)?)\\.?$");

    /** A subject the shapes below take: a name or "The user", never "Alice's sister". */
    private static final String WHO = "(?<s>[^ '’]+(?: [^ '’]+)?)";

    private static final String WHO_S = "(?<s>[^ '’]+(?: [^ '’]+)?)['’]s";

    /** "Dana is single", "Dana is engaged to Sam", "Dana got divorced in 2025". */
    private static final Pattern STATUS =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:is|got) (?:now )?(?<v>(?:no longer )?(?:single|married|engaged|divorced|widowed|separated))(?: (?:to|from) (?<who>[^.]+?))?(?: (?:in|on|last|this|since) [^.]*)?\\.?$");

    private static final Pattern DIET =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:is|has been) (?<v>(?:no longer )?(?:vegetarian|vegan|pescatarian|on (?:a |the )?(?:strict )?[a-z0-9 -]{2,24}? diet))(?: since [^.]*)?\\.?$");

    /** "Dana commutes by train", "Dana works the night shift", "Dana is Catholic". */
    private static final Pattern COMMUTES =
            Pattern.compile("^" + WHO + " commutes (?<v>by [^.]+|on foot)\\.?$");

    private static final Pattern SHIFT =
            Pattern.compile(
                    "^"
                            + WHO
                            + " works the (?<v>[a-z0-9]+ shift)(?: as an? [^.]*?)?(?: (?:at|in|for) [^.]*)?\\.?$");

    private static final Pattern FAITH =
            Pattern.compile(
                    "^"
                            + WHO
                            + " is (?<v>(?:no longer )?(?:an )?(?:Catholic|Christian|Muslim|Jewish|Buddhist|Hindu|Sikh|Mormon|Methodist|Baptist|Lutheran|Anglican|Presbyterian|Evangelical|Orthodox|Quaker|Pagan|Jain|atheist|agnostic))\\.?$");

    /** "Dana has three cats": how many, when said as a number above one. */
    private static final Pattern COUNT =
            Pattern.compile(
                    "^"
                            + WHO
                            + " has (?<v>one|two|three|four|five|six|seven|eight|nine|ten|\\d+) (?<noun>[a-z]+)(?: named [^.]*)?\\.?$");

    /** "Dana is dating Chris", "Dana has a girlfriend": a relationship status. */
    private static final Pattern PARTNERED =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:is (?<dating>dating|in a relationship with|going out with) (?<who>[^.]+?)|is (?<in>in a relationship)|has (?<has>an? (?:girlfriend|boyfriend|partner|wife|husband|fiancee?|fiancé))(?: named [^.]*)?)\\.?$");

    /** "Dana broke up with Jake": single again. */
    private static final Pattern BROKE_UP =
            Pattern.compile("^" + WHO + " broke up with (?<who>[^ .]+)(?: [^.]*)?\\.?$");

    /** "Dana had their third child": how many, said as the newest one's place. */
    private static final Pattern NTH =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:had|welcomed|adopted|got) (?:their|a|our) (?<ord>second|third|fourth|fifth|sixth) (?<noun>child|baby|kid|son|daughter|dog|cat|puppy|kitten)\\b[^.]*\\.?$");

    private static final java.util.Map<String, String> CARDINALS =
            java.util.Map.of(
                    "second", "two", "third", "three", "fourth", "four", "fifth", "five", "sixth",
                    "six");

    /** "Dana is making $92,000": the salary. */
    private static final Pattern EARNS =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:is making|is earning|makes|earns|is paid) (?<v>[$€£][\\d.,]+[kK]?|\\d{2,3}(?:\\.\\d)?[kK])(?: (?:a|per) year)?\\.?$");

    /** "Dana's dog is called Max": the dog's name, as "Dana's dog's name is Max" says it. */
    private static final Pattern CALLED =
            Pattern.compile(
                    "^" + WHO_S + " (?<a>[a-z]+) is (?:called|named) (?<v>[A-Z][^.]*?)\\.?$");

    /** "Dana grew up in Dallas": the hometown, as "Dana's hometown is Dallas" says it. */
    private static final Pattern GREW_UP =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:(?:grew up|was born(?: and (?:raised|bred))?|was raised) in|is (?:originally )?from|comes from) (?<v>[^.]+?)\\.?$");

    /** "Dana banks with Chase", "Dana works out at Crunch": a provider one has one of. */
    private static final Pattern PROVIDER =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?<verb>banks with|goes to the gym at|works out at|trains at) (?<v>[^.]+?)\\.?$");

    /**
     * "Dana supports Arsenal", "Dana is a die-hard Yankees fan": the team, when it is one ("a
     * Taylor Swift fan" has no team; one can be a fan of many such).
     */
    private static final Pattern TEAM =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:supports (?:the )?(?<v>[A-Z][^.]*?)|is an? (?:(?:big|huge|massive|die-hard|diehard|lifelong|loyal|proper|true) )*(?:the )?(?<fan>[A-Z][^.]*?) (?:fan|supporter))\\.?$");

    /** "Dana is doing a degree in chemistry": the subject studied, as "Dana's major is …". */
    private static final Pattern MAJOR =
            Pattern.compile(
                    "^"
                            + WHO
                            + " (?:is (?:doing|studying for|taking) an? (?:degree|ba|bsc|ma|msc|masters|master's|phd|ph\\.d\\.) in|is majoring in|majors in) (?<v>[^.]+?)\\.?$");

    /** "Dana goes to Equinox": a provider gone to, when the name is a gym's. */
    private static final Pattern GOES_TO =
            Pattern.compile("^" + WHO + " goes to (?<v>[A-Z][^.]*?)\\.?$");

    private static final Pattern DRIVES =
            Pattern.compile("^" + WHO + " drives (?<v>an? [^.]+?)\\.?$");

    /** "Dana uses an iPhone 12": the phone, as "Dana's phone is an iPhone 12" says it. */
    private static final Pattern USES_PHONE =
            Pattern.compile(
                    "^"
                            + WHO
                            + " uses (?<v>an? (?:iPhone|Pixel|Galaxy|Samsung|OnePlus|Motorola|Moto|Nokia|Xiaomi|Android)\\b[^.]*?)\\.?$");

    private static final Pattern NUMBER =
            Pattern.compile(
                    "(?i)^(?:\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ][a-z]+)?(?: years old| months old)?$");

    /** The key of a fact's words, when they have one of the shapes that give a value. */
    static Optional<FactKey> read(String content) {
        String c = content.strip();
        Matcher m;
        int no = c.indexOf(" no longer ");
        if (no > 0 && no == c.indexOf(' ') && !c.contains(" no longer works at ")) {
            // "Dana no longer lives in Boston": the attribute, with no value now.
            String subject = c.substring(0, no);
            return read(subject + " " + c.substring(no + " no longer ".length()))
                    .filter(k -> k.subject().equals(subject))
                    .map(k -> new FactKey(k.subject(), k.attribute(), FactKey.NONE));
        }
        if ((m = WORKS_AT.matcher(c)).matches()) {
            String v = c.contains(" no longer works at ") ? FactKey.NONE : m.group("v");
            return Optional.of(new FactKey(m.group("s"), "workplace", v));
        }
        if ((m = WORKS_AS.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "occupation", m.group("v")));
        }
        if ((m = LIVES.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "residence", m.group("v")));
        }
        if ((m = IS_ROLE.matcher(c)).matches()
                && occupation(m.group("role").toLowerCase(java.util.Locale.ROOT))) {
            return Optional.of(new FactKey(m.group("s"), "occupation", m.group("v")));
        }
        if ((m = STATUS.matcher(c)).matches()) {
            String who = m.group("who");
            return Optional.of(
                    new FactKey(
                            m.group("s"),
                            "relationship status",
                            m.group("v") + (who == null ? "" : " to " + who)));
        }
        if ((m = DIET.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "diet", m.group("v")));
        }
        if ((m = COMMUTES.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "commute", m.group("v")));
        }
        if ((m = SHIFT.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "shift", m.group("v")));
        }
        if ((m = FAITH.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "religion", m.group("v")));
        }
        if ((m = COUNT.matcher(c)).matches()) {
            return Optional.of(
                    new FactKey(
                            m.group("s"), "number of " + singular(m.group("noun")), m.group("v")));
        }
        if ((m = PARTNERED.matcher(c)).matches()) {
            String v =
                    m.group("dating") != null
                            ? "dating " + m.group("who")
                            : m.group("in") != null ? m.group("in") : m.group("has");
            return Optional.of(new FactKey(m.group("s"), "relationship status", v));
        }
        if ((m = BROKE_UP.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "relationship status", "single"));
        }
        if ((m = NTH.matcher(c)).matches()) {
            return Optional.of(
                    new FactKey(
                            m.group("s"),
                            "number of " + singular(m.group("noun")),
                            CARDINALS.get(m.group("ord"))));
        }
        if ((m = EARNS.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "salary", m.group("v")));
        }
        if ((m = GREW_UP.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "hometown", m.group("v")));
        }
        if ((m = PROVIDER.matcher(c)).matches()) {
            String attribute = m.group("verb").equals("banks with") ? "bank" : "gym";
            return Optional.of(new FactKey(m.group("s"), attribute, m.group("v")));
        }
        if ((m = TEAM.matcher(c)).matches()) {
            String team = m.group("v") != null ? m.group("v") : m.group("fan");
            if (Lexicons.TEAMS.contains(team.toLowerCase(Locale.ROOT))) {
                return Optional.of(new FactKey(m.group("s"), "team", team));
            }
        }
        if ((m = MAJOR.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "major", m.group("v")));
        }
        if ((m = GOES_TO.matcher(c)).matches()
                && Providers.kindOf(m.group("v")).filter("gym"::equals).isPresent()) {
            return Optional.of(new FactKey(m.group("s"), "gym", m.group("v")));
        }
        if ((m = DRIVES.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "car", m.group("v")));
        }
        if ((m = USES_PHONE.matcher(c)).matches()) {
            return Optional.of(new FactKey(m.group("s"), "phone", m.group("v")));
        }
        if ((m = CALLED.matcher(c)).matches()) {
            // "Dana's girlfriend is called Priya": the status "Dana is dating Priya" gives.
            String s = m.group("s");
            String a = m.group("a");
            String v = m.group("v");
            return Partners.status(s, a, v).or(() -> Optional.of(new FactKey(s, a + "'s name", v)));
        }
        if ((m = POSSESSIVE.matcher(c)).matches()) {
            String subject = m.group("s");
            if (subject.contains(" ") && !subject.equals("The user")) {
                // "Alice's sister Ana's car is…": not a subject this reads.
                return Optional.empty();
            }
            String value = m.group("v");
            // "Dana's boyfriend is Jake" is the status "Dana is dating Jake" gives.
            Optional<FactKey> partner = Partners.status(subject, m.group("a"), value);
            if (partner.isPresent()) {
                return partner;
            }
            String a = m.group("a").toLowerCase(Locale.ROOT);
            if (a.matches("(?:new |current )?(?:apartment|house|home|place|flat|condo|address)")
                    && value.startsWith("in ")) {
                // "Dana's new apartment is in Nashville": where Dana lives.
                return Optional.of(new FactKey(subject, "residence", value.substring(3)));
            }
            if (a.matches(
                    "(?:new |current )?(?:job|occupation|profession|career|job title|title)")) {
                // "Dana's job is at Oracle": a workplace; "Dana's job is food critic": a role.
                return value.startsWith("at ")
                        ? Optional.of(new FactKey(subject, "workplace", value.substring(3)))
                        : Optional.of(new FactKey(subject, "occupation", Phrases.article(value)));
            }
            if (WORKPLACE.contains(m.group("a").toLowerCase(Locale.ROOT))) {
                // "Dana's employer is Apple" gives where Dana works, as "Dana works at Apple".
                return Optional.of(new FactKey(subject, "workplace", value));
            }
            return relative(m.group("a"), value)
                    .map(attribute -> new FactKey(subject, attribute, value));
        }
        return Optional.empty();
    }

    /**
     * The attribute of "X's daughter is 5" and "X's daughter is a nurse": the relative's age or
     * occupation, two things that change apart. A relative's name keeps the relation as the
     * attribute ("X's partner is Sam"); any other value of a relative gives no key.
     */
    private static Optional<String> relative(String attribute, String value) {
        String a = attribute.toLowerCase(Locale.ROOT);
        if (!Lexicons.RELATIONS.contains(a)) {
            return Optional.of(attribute);
        }
        if (NUMBER.matcher(value.strip()).matches()) {
            return Optional.of(attribute + "'s age");
        }
        if (value.matches("(?i)^an? .+")) {
            return Lexicons.role(Phrases.lastWord(value))
                    ? Optional.of(attribute + "'s occupation")
                    : Optional.empty();
        }
        return Optional.of(attribute);
    }

    /** Attributes that name where someone works. */
    private static final Set<String> WORKPLACE =
            Set.of("employer", "new employer", "current employer", "company", "workplace");

    /** "kids" and "kid", "children" and "child": one count, however many. */
    private static String singular(String noun) {
        if (noun.matches("kids?|bab(?:y|ies)|children")) {
            return "child";
        }
        if (noun.endsWith("ren")) {
            return noun.substring(0, noun.length() - 3);
        }
        if (noun.endsWith("ies") && noun.length() > 4) {
            return noun.substring(0, noun.length() - 3) + "y";
        }
        return noun.endsWith("s") && !noun.endsWith("ss")
                ? noun.substring(0, noun.length() - 1)
                : noun;
    }

    private static boolean occupation(String role) {
        return Lexicons.occupation(role);
    }
}
