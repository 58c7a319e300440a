package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the durable statements a person makes about themselves in one clause — attributes,
 * preferences, relationships, plans, events with their time, changed values — and writes each as a
 * clean third-person sentence with the person's name ("My budget for the Hawaii trip is $10,000" →
 * "Alice's budget for the Hawaii trip is $10,000."). A clause that matches no pattern, or whose
 * parts are vague ("I love it"), judging ("my day was great"), hedged or about the listener, yields
 * nothing: precision before recall, the conversation excerpt keeps the words.
 */
public final class StatementExtractor {

    private static final String ADVERBS =
            "(?:(?:really|truly|absolutely|totally|also|just|still|especially|definitely|do|now"
                    + "|currently|actually|genuinely|seriously|kind of|sort of|pretty much|always"
                    + "|honestly|literally|so|very|super|more|mostly|mainly) )*";
    private static final Pattern HEDGE =
            Pattern.compile(
                    "(?i)\\b(maybe|perhaps|might|probably|not sure|i guess|i think|i suppose|i wonder|if i|if we|hopefully|possibly|someday|one day|wish|hypothetically|let us say|suppose|imagine|what if|have not decided|not decided|undecided|would be)\\b");

    /** A verb in capitals ("I just LOVE Mondays"): said with irony more often than not. */
    private static final Pattern SHOUTED = Pattern.compile("\\b(LOVE|LIKE|ADORE|ENJOY|HATE)\\b");

    /** "Sara and I …", "my wife and I …": a statement of the speaker and a companion. */
    private static final Pattern COMPANION =
            Pattern.compile(
                    "^(?<with>(?:[A-Z][\\p{L}'-]+|(?i:my) (?:[\\p{L}-]+ ){0,1}[\\p{L}-]+)) and I (?<rest>.+)$");

    private static final Pattern NEGATION = Pattern.compile("(?i)\\b(not|never|no longer|no)\\b");

    private static final Pattern POSSESSIVE_COPULA =
            Pattern.compile(
                    "(?i)^(?:my|our|the(?= (?:[\\p{L}-]+ ){0,3}(?:budget|deadline|address|limit|target|due date|wedding date)\\b)) (?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?<cop>is|are) (?:now |actually |still |officially |currently |definitely )?(?<val>.+)$");
    private static final Pattern POSSESSIVE_CHANGE =
            Pattern.compile(
                    "(?i)^(?:my|our) (?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?:just |has )?(?:went|gone|go|going|is going|has gone|was|got|has been)? ?(?:up|down|raised|increased|decreased|bumped up|bumped|lowered|cut|changed|moved|rose|dropped|grew|jumped|is now|been raised|been increased)(?: up| down)? to (?<val>.+)$");
    private static final Pattern SET_TO =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |have |have just |finally )?(?:raised|increased|upped|bumped|lowered|cut|changed|moved|set|reduced|adjusted|doubled) (?:my|our|the) (?<attr>(?:[\\p{L}0-9'’&-]+ ){0,6}?[\\p{L}0-9'’&-]+) (?:up |down )?to (?<val>.+)$");
    private static final Pattern CHANGED_NAME =
            Pattern.compile(
                    "(?i)^(?:please )?(?:call me|you can call me|i go by) (?<val>[A-Z][\\p{L}'’-]+(?: [A-Z][\\p{L}'’-]+)?)(?: .*)?$");
    private static final Pattern INVERTED_FAVORITE =
            Pattern.compile(
                    "(?i)^(?<val>[^,]{1,50}?) (?:is|are) (?:now |definitely |probably |still |totally |by far )?my (?:new |all-time |all time |absolute )?(?<attr>favou?rite(?: [\\p{L}-]+){1,2}|fave(?: [\\p{L}-]+)?|top pick|go-to(?: [\\p{L}-]+)?|(?:main |biggest )?(?:hobby|hobbies|passion|specialty))$");
    private static final Pattern LIVES =
            Pattern.compile(
                    "(?i)^(?:I|we) "
                            + ADVERBS
                            + "(?:live|am living|are living|reside|am based|are based|am settled|are settled|have lived|have been living|grew up|was born|was raised) (?:in|near|outside|outside of) (?<place>.+)$");
    private static final Pattern MOVED =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |officially |have |have just |had )?(?:moved|relocated)(?: back)? (?:to|into) (?<place>.+)$");
    private static final Pattern WORKS_AT =
            Pattern.compile(
                    "(?i)^I " + ADVERBS + "work (?:at|for) (?<org>.+?)(?: as (?<role>an? .+))?$");
    private static final Pattern WORKS_AS =
            Pattern.compile("(?i)^I " + ADVERBS + "work as (?<role>an? .+)$");
    private static final Pattern NEW_JOB =
            Pattern.compile(
                    "(?i)^I (?:just |recently |finally |have |have just )?(?:started|began|got|landed|accepted|took)(?: a| my| the)? (?:new )?(?:job|position|role|gig)(?: as (?<role>an? [^,]+?))? (?:at|with|for) (?<org>.+)$");
    private static final Pattern JOINED_AS =
            Pattern.compile(
                    "(?i)^I (?:just |recently |have |have just )?(?:joined|started at|started working at|started working for) (?<org>[A-Z][\\p{L}0-9&.'-]*(?: [A-Z][\\p{L}0-9&.'-]*){0,3})(?: as (?<role>an? .+))?$");
    private static final Pattern PROMOTED =
            Pattern.compile("(?i)^I (?:just )?(?:got|was|have been) promoted to (?<role>.+)$");
    private static final Pattern QUIT =
            Pattern.compile(
                    "(?i)^I (?:just |finally )?(?:quit|left) my (?:job|position|role) (?:at|with) (?<org>.+)$");
    private static final Pattern I_AM_ROLE =
            Pattern.compile(
                    "(?i)^I am (?:now |currently |also |still |actually )?(?<role>(?:an? )?(?:[\\p{L}-]+ ){0,3}[\\p{L}-]+)(?<where> (?:at|for|with|in|on) .+)?$");
    private static final Pattern LIKING =
            Pattern.compile(
                    "(?i)^I "
                            + ADVERBS
                            + "(?<verb>love|like|enjoy|adore|hate|dislike|prefer|cannot stand|collect|play|practice|practise|speak|volunteer|teach|study|own|run)(?<to> to)? (?<obj>.+)$");
    private static final Pattern NOT_LIKING =
            Pattern.compile(
                    "(?i)^I (?:really |just |actually )?(?:do not|never|no longer) (?:really )?(?<verb>like|enjoy|eat|drink|love|smoke|watch|play) (?<obj>.+)$");
    private static final Pattern FAN =
            Pattern.compile(
                    "(?i)^I am "
                            + ADVERBS
                            + "(?<how>into|obsessed with|passionate about|a (?:big |huge |massive )?fan of|learning|allergic to|afraid of|scared of|keen on|all about|addicted to|hooked on) (?<obj>.+)$");
    private static final Pattern DIET =
            Pattern.compile(
                    "(?i)^I (?:am|have been|went) (?:a |an )?(?<diet>vegetarian|vegan|pescatarian|lactose intolerant|gluten intolerant|celiac|diabetic|teetotal|sober|left-handed|right-handed|colorblind|colourblind|color blind|deaf|dyslexic|autistic|an only child|a twin)(?<rest> .+)?$");
    private static final Pattern HAVE =
            Pattern.compile("(?i)^(?:I|we) (?<verb>have|have got|own|got|adopted) (?<rest>.+)$");
    private static final Pattern NAMED =
            Pattern.compile(
                    "^(?:named|called) (?<name>[A-Z][\\p{L}'-]+(?:(?:,| and) [A-Z][\\p{L}'-]+)*)(?<after> .*)?$");
    private static final Pattern MARRIED_TO =
            Pattern.compile(
                    "(?i)^I am (?:happily )?(?<state>married|engaged) to (?<name>[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+)?)$");
    private static final Pattern AGE =
            Pattern.compile(
                    "(?i)^I am (?:now |turning |about to turn )?(?<n>\\d{1,3})(?: years old| yrs old| now)?$");
    private static final Pattern STATE =
            Pattern.compile(
                    "(?i)^I am (?:now |currently |\\d+ (?:weeks|months) )?(?<state>married|engaged|divorced|single|pregnant|retired|widowed|a grandparent|expecting)(?: .*)?$");
    private static final Pattern RELATIVE =
            Pattern.compile(
                    "(?i)^my (?<rel>[\\p{L}-]+(?: [\\p{L}-]+)?) (?<name>[A-Z][\\p{L}'-]+) (?<pred>(?:lives in|works at|works as|works for|is an?|loves|studies|plays|moved to|is moving to|is getting married|got married|is starting|started|graduated|is coming|is visiting|is joining) .+)$");
    private static final Pattern PLAN =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:am|are) (?:going|planning|hoping|about|aiming|getting ready|preparing|excited|looking forward|thinking) (?:to|on|of|about) (?<vp>.+)$");
    private static final Pattern INTEND =
            Pattern.compile(
                    "(?i)^I (?:plan|intend|want|hope|would like|would love|have decided|decided|aim|am determined) to (?<vp>.+)$");
    private static final Pattern WILL = Pattern.compile("(?i)^(?:I|we) (?:will|shall) (?<vp>.+)$");
    private static final Pattern ACTIVITY =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:am|are|have been|have also been|have recently been) "
                            + ADVERBS
                            + "(?<ving>[a-z]+ing)(?<rest> .+)$");
    private static final Pattern DONE =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:have|have already|have just|have recently|have finally) (?<verb>been to|visited|done|tried|started|finished|completed|learned|learnt|read|written|built|adopted|bought|joined|won|run|climbed|published)(?<rest> .+)$");
    private static final Pattern LUCKY_TO_HAVE =
            Pattern.compile(
                    "(?i)^I am (?:so |really |very )?(?:lucky|blessed|grateful|thankful) to have (?:my|a|an) (?<rel>[\\p{L}-]+)(?: and (?:my |a |an )?(?<rel2>[\\p{L}-]+))?$");
    private static final Pattern PROCEDURE =
            Pattern.compile(
                    "(?i)^to (?<goal>[a-z]+ (?:my|our) [\\p{L} '-]{2,40}), (?<steps>(?:first|start by|always|just) .{10,200})$");
    private static final Pattern PROGRESSIVE =
            Pattern.compile("(?i)^(?:I|we) (?:am|are) (?<ving>[a-z]+ing) (?<rest>.+)$");
    private static final Pattern EVENT =
            Pattern.compile(
                    "(?i)^(?:I|we) (?:just |recently |finally |also |actually |even |both |already |once )*(?<verb>[a-z]+)(?<rest>(?: .+)?)$");

    /** One statement of a clause, with how sure the pattern is of it. */
    private record Read(
            String kind, MemoryType type, String text, Instant validFrom, double importance) {}

    /**
     * The statements {@code clause} makes about its speaker ({@code name}; null when not named),
     * said at {@code said}. Every one is checked by {@link FactShape}.
     */
    public List<Statement> read(String name, String clause, Instant said) {
        Renderer r = new Renderer(name);
        String c = clause.strip();
        if (c.isEmpty()
                || c.endsWith("?")
                || HEDGE.matcher(c).find()
                || SHOUTED.matcher(c).find()) {
            return List.of();
        }
        Matcher together = COMPANION.matcher(c);
        if (together.matches()) {
            String with = together.group("with");
            if (Lexicons.EMPTY_OBJECTS.contains(firstWord(with))) {
                return List.of();
            }
            r = r.with(r.thirdPerson(with));
            c = "we " + together.group("rest");
        }
        Optional<Read> read = readClause(r, c, said);
        if (read.isEmpty()) {
            return List.of();
        }
        Read x = read.get();
        String content = r.sentence(x.text());
        if (FactShape.problem(content, r.subject()).isPresent()) {
            return List.of();
        }
        return List.of(
                new Statement(
                        x.kind(),
                        x.type(),
                        content,
                        FactKey.of(content),
                        x.validFrom(),
                        x.importance()));
    }

    private Optional<Read> readClause(Renderer r, String c, Instant said) {
        Matcher m;
        if ((m = CHANGED_NAME.matcher(c)).matches()) {
            return attribute(r, "preferred name", "is", m.group("val"), said, 0.8);
        }
        if ((m = POSSESSIVE_CHANGE.matcher(c)).matches() || (m = SET_TO.matcher(c)).matches()) {
            Optional<Read> change = attribute(r, m.group("attr"), "is", m.group("val"), said, 0.85);
            if (change.isPresent()) {
                return change;
            }
        }
        if ((m = POSSESSIVE_COPULA.matcher(c)).matches()) {
            Optional<Read> attribute =
                    attribute(r, m.group("attr"), m.group("cop"), m.group("val"), said, 0.8);
            if (attribute.isPresent() || !RELATIVE.matcher(c).matches()) {
                return attribute;
            }
        }
        if ((m = INVERTED_FAVORITE.matcher(c)).matches()) {
            String val = m.group("val");
            if (Lexicons.EMPTY_OBJECTS.contains(firstWord(val))) {
                return Optional.empty();
            }
            return attribute(r, m.group("attr"), "is", val, said, 0.8);
        }
        if ((m = LIVES.matcher(c)).matches()) {
            return place(r, m.group("place"), said, false);
        }
        if ((m = MOVED.matcher(c)).matches()) {
            return place(r, m.group("place"), said, true);
        }
        if ((m = QUIT.matcher(c)).matches()) {
            return organisation(m.group("org"))
                    .map(
                            org ->
                                    read(
                                            "change",
                                            r.subject() + " no longer works at " + org,
                                            said,
                                            0.8));
        }
        if ((m = NEW_JOB.matcher(c)).matches()
                || (m = JOINED_AS.matcher(c)).matches() && m.group("role") != null
                || (m = WORKS_AT.matcher(c)).matches()) {
            String role = m.group("role");
            Optional<String> org = organisation(m.group("org"));
            if (org.isEmpty()) {
                return Optional.empty();
            }
            String as = role == null ? "" : phrase(role, 5).map(p -> " as " + p).orElse("");
            return Optional.of(
                    read("attribute", r.subject() + " works at " + org.get() + as, said, 0.85));
        }
        if ((m = WORKS_AS.matcher(c)).matches() || (m = PROMOTED.matcher(c)).matches()) {
            return phrase(m.group("role"), 5)
                    .map(
                            role ->
                                    read(
                                            "attribute",
                                            r.subject() + " works as " + article(role),
                                            said,
                                            0.85));
        }
        if ((m = MARRIED_TO.matcher(c)).matches()) {
            return Optional.of(
                    social(
                            r.subject()
                                    + " is "
                                    + m.group("state").toLowerCase(Locale.ROOT)
                                    + " to "
                                    + m.group("name"),
                            said));
        }
        if ((m = AGE.matcher(c)).matches()) {
            int years = Integer.parseInt(m.group("n"));
            if (years < 3 || years > 120) {
                return Optional.empty();
            }
            return Optional.of(read("attribute", r.possessive() + " age is " + years, said, 0.85));
        }
        if ((m = STATE.matcher(c)).matches()) {
            return Optional.of(
                    read(
                            "attribute",
                            r.subject() + " is " + m.group("state").toLowerCase(Locale.ROOT),
                            said,
                            0.7));
        }
        if ((m = DIET.matcher(c)).matches()) {
            String rest = m.group("rest");
            String since =
                    rest == null
                            ? ""
                            : TimePhrases.first(rest, said)
                                    .map(
                                            t ->
                                                    " since "
                                                            + t.text()
                                                                    .replaceFirst(
                                                                            "^(on|in|around) ", ""))
                                    .orElse("");
            String diet = m.group("diet").toLowerCase(Locale.ROOT);
            Optional<TimePhrases.Resolved> from =
                    rest == null ? Optional.empty() : TimePhrases.first(rest, said);
            String text = r.subject() + (since.isEmpty() ? " is " : " has been ") + diet + since;
            return Optional.of(
                    new Read(
                            "attribute",
                            MemoryType.SEMANTIC,
                            text,
                            from.map(TimePhrases.Resolved::instant).orElse(said),
                            0.75));
        }
        if ((m = I_AM_ROLE.matcher(c)).matches()
                && Lexicons.ROLES.contains(lastWord(m.group("role")))) {
            String role = m.group("role").toLowerCase(Locale.ROOT);
            if (role.startsWith("a ") || role.startsWith("an ")) {
                String at = m.group("where");
                String where =
                        at == null
                                ? ""
                                : phrase(at, 6).map(w -> " " + r.thirdPerson(w.strip())).orElse("");
                return Optional.of(
                        read("attribute", r.subject() + " is " + role + where, said, 0.75));
            }
        }
        if ((m = FAN.matcher(c)).matches()) {
            String how = m.group("how").toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            return object(r, m.group("obj"))
                    .map(
                            obj ->
                                    read(
                                            "preference",
                                            r.subject() + " is " + how + " " + obj,
                                            said,
                                            0.65));
        }
        if ((m = NOT_LIKING.matcher(c)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            return object(r, m.group("obj"))
                    .map(
                            obj ->
                                    read(
                                            "preference",
                                            r.subject() + " does not " + verb + " " + obj,
                                            said,
                                            0.65));
        }
        if (NEGATION.matcher(c).find()) {
            return Optional.empty();
        }
        if ((m = LIKING.matcher(c)).matches()) {
            String verb = Lexicons.LIKING.get(m.group("verb").toLowerCase(Locale.ROOT));
            String to = m.group("to") == null ? "" : " to";
            return object(r, m.group("obj"))
                    .map(
                            obj ->
                                    read(
                                            "preference",
                                            r.subject() + " " + verb + to + " " + obj,
                                            said,
                                            0.65));
        }
        if ((m = HAVE.matcher(c)).matches()) {
            Optional<Read> had =
                    had(r, m.group("verb").toLowerCase(Locale.ROOT), m.group("rest"), said);
            if (had.isPresent()) {
                return had;
            }
        }
        if ((m = RELATIVE.matcher(c)).matches()) {
            String rel = m.group("rel").toLowerCase(Locale.ROOT);
            if (!Lexicons.RELATIONS.contains(rel) && !Lexicons.RELATIONS.contains(lastWord(rel))) {
                return Optional.empty();
            }
            String relative = r.possessive() + " " + rel + " " + m.group("name") + " ";
            return withTime(r, m.group("pred"), said)
                    .map(
                            t ->
                                    new Read(
                                            "relationship",
                                            MemoryType.SOCIAL,
                                            relative + t.text(),
                                            t.at(),
                                            0.75));
        }
        if ((m = PROCEDURE.matcher(c)).matches()) {
            String goal = r.thirdPerson(m.group("goal"));
            String steps = r.thirdPerson(m.group("steps").strip());
            if (steps.matches("(?i).*\\b(you|your)\\b.*")) {
                return Optional.empty();
            }
            return Optional.of(
                    new Read(
                            "procedure",
                            MemoryType.PROCEDURAL,
                            r.possessive() + " way to " + goal + ": " + steps,
                            said,
                            0.7));
        }
        if ((m = LUCKY_TO_HAVE.matcher(c)).matches()) {
            String rel = m.group("rel").toLowerCase(Locale.ROOT);
            String rel2 = m.group("rel2") == null ? null : m.group("rel2").toLowerCase(Locale.ROOT);
            if (!Lexicons.RELATIONS.contains(rel)
                    || (rel2 != null && !Lexicons.RELATIONS.contains(rel2))) {
                return Optional.empty();
            }
            return Optional.of(
                    social(
                            r.subject()
                                    + " has "
                                    + article(rel)
                                    + (rel2 == null ? "" : " and " + rel2),
                            said));
        }
        if ((m = DONE.matcher(c)).matches()) {
            String verb = m.group("verb").toLowerCase(Locale.ROOT);
            String has = verb.equals("been to") ? "has been to" : "has " + verb;
            return withTime(r, m.group("rest").strip(), said)
                    .filter(t -> !Lexicons.EMPTY_OBJECTS.contains(firstWord(t.text())))
                    .filter(t -> contentWords(t.text()) >= 1)
                    .map(
                            t ->
                                    new Read(
                                            "event",
                                            MemoryType.EPISODIC,
                                            r.subject() + " " + has + " " + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((m = PLAN.matcher(c)).matches() || (m = INTEND.matcher(c)).matches()) {
            String lead = c.toLowerCase(Locale.ROOT);
            boolean wants = lead.matches("^i (want|hope|would like|would love).*");
            return plan(r, m.group("vp"), said, wants);
        }
        if ((m = WILL.matcher(c)).matches()) {
            if (TimePhrases.first(c, said).isEmpty()) {
                return Optional.empty();
            }
            return plan(r, m.group("vp"), said, false);
        }
        if ((m = ACTIVITY.matcher(c)).matches()
                && Lexicons.ACTIVITIES.contains(m.group("ving").toLowerCase(Locale.ROOT))
                && !(m.group("ving").matches("(?i)starting|beginning|trying")
                        && m.group("rest").strip().startsWith("to "))) {
            String ving = m.group("ving").toLowerCase(Locale.ROOT);
            boolean perfect = c.toLowerCase(Locale.ROOT).contains(" have ");
            return withTime(r, ving + " " + m.group("rest").strip(), said)
                    .filter(t -> !vague(t.text().substring(ving.length())))
                    .filter(t -> contentWords(t.text()) >= 2)
                    .map(
                            t ->
                                    new Read(
                                            "activity",
                                            MemoryType.SEMANTIC,
                                            r.subject()
                                                    + (perfect ? " has been " : " is ")
                                                    + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((m = PROGRESSIVE.matcher(c)).matches()) {
            Optional<TimePhrases.Resolved> when = TimePhrases.first(c, said);
            if (when.isEmpty() || !when.get().instant().isAfter(said.minusSeconds(86_400))) {
                return Optional.empty();
            }
            return withTime(r, m.group("ving") + " " + m.group("rest").strip(), said)
                    .map(
                            t ->
                                    new Read(
                                            "plan",
                                            MemoryType.SEMANTIC,
                                            r.subject() + " is " + t.text(),
                                            t.at(),
                                            0.65));
        }
        if ((m = EVENT.matcher(c)).matches()) {
            return event(r, m.group("verb").toLowerCase(Locale.ROOT), m.group("rest"), said);
        }
        return Optional.empty();
    }

    private Optional<Read> attribute(
            Renderer r, String attr, String copula, String value, Instant said, double importance) {
        String a = attr.strip().replaceAll("^(?i)(new|current|actual) ", "");
        String head = lastWord(a.replaceAll("(?i) (for|of|at|in|on|with|to|from) .*$", ""));
        boolean favorite =
                a.toLowerCase(Locale.ROOT).startsWith("favorite")
                        || a.toLowerCase(Locale.ROOT).startsWith("favourite");
        if (Lexicons.NOT_ATTRIBUTES.contains(head.toLowerCase(Locale.ROOT))
                || a.split(" ").length > 7
                || a.matches("(?i).*\\b(you|your|it|this|that|i)\\b.*")) {
            return Optional.empty();
        }
        Optional<String> v = phrase(value, 10);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        String first = firstWord(v.get());
        if (!favorite
                && (Lexicons.JUDGEMENTS.contains(first)
                        || Lexicons.EMPTY_OBJECTS.contains(first))) {
            return Optional.empty();
        }
        if (favorite && Lexicons.EMPTY_OBJECTS.contains(first)) {
            return Optional.empty();
        }
        double weight = importance + (v.get().matches(".*[$€£0-9].*") ? 0.1 : 0);
        return Optional.of(
                read(
                        "attribute",
                        r.possessive()
                                + " "
                                + r.thirdPerson(a)
                                + " "
                                + copula.toLowerCase(Locale.ROOT)
                                + " "
                                + r.thirdPerson(v.get()),
                        said,
                        Math.min(1, weight)));
    }

    private Optional<Read> place(Renderer r, String place, Instant said, boolean moved) {
        Optional<TimePhrases.Resolved> when = TimePhrases.first(place, said);
        String p = when.map(w -> cutOut(place, w)).orElse(place);
        String where = p.split("(?i) (with|for|since|because|and|where|which|near) ", 2)[0];
        Optional<String> named = phrase(where, 6).filter(x -> x.matches(".*\\b[A-Z][\\p{L}]+.*"));
        if (named.isEmpty()) {
            return Optional.empty();
        }
        String text =
                moved
                        ? r.subject()
                                + " moved to "
                                + named.get()
                                + when.map(w -> " " + w.text()).orElse("")
                        : r.subject() + " lives in " + named.get();
        return Optional.of(
                new Read(
                        "attribute",
                        MemoryType.SEMANTIC,
                        text,
                        when.map(TimePhrases.Resolved::instant).orElse(said),
                        0.85));
    }

    /**
     * "I have two kids", "we adopted a rescue dog named Biscuit last weekend", "I have type 1
     * diabetes": a person, animal, thing or condition someone has, its name, and for an adoption
     * its time. Anything else after it is another statement: nothing.
     */
    private Optional<Read> had(Renderer r, String verb, String rest, Instant said) {
        String[] words = rest.strip().split("\\s+");
        if (words.length == 0
                || !words[0].toLowerCase(Locale.ROOT)
                        .matches("a|an|one|two|three|four|five|six|seven|\\d+|twin|type")) {
            return Optional.empty();
        }
        int head = -1;
        for (int i = 1; i < Math.min(words.length, 5); i++) {
            String w = words[i].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}'-]", "");
            if (Lexicons.RELATIONS.contains(w)
                    || Lexicons.BELONGINGS.contains(w)
                    || Lexicons.CONDITIONS.contains(w)) {
                head = i;
                break;
            }
        }
        if (head < 0) {
            return Optional.empty();
        }
        String obj =
                String.join(" ", java.util.Arrays.copyOfRange(words, 0, head + 1))
                        .replaceAll("[,.!]+$", "");
        String after =
                String.join(" ", java.util.Arrays.copyOfRange(words, head + 1, words.length))
                        .strip();
        String name = null;
        Matcher named = NAMED.matcher(after);
        if (named.matches()) {
            name = named.group("name");
            after = named.group("after") == null ? "" : named.group("after").strip();
        }
        Optional<TimePhrases.Resolved> time = Optional.empty();
        if (!after.isEmpty()) {
            time = TimePhrases.first(after, said);
            boolean onlyTime =
                    time.isPresent()
                            && after.substring(0, time.get().from()).isBlank()
                            && after.substring(time.get().to()).isBlank();
            if (!onlyTime) {
                return Optional.empty();
            }
        }
        Optional<TimePhrases.Resolved> when = time;
        return possession(r, obj, name, said)
                .map(
                        p ->
                                verb.equals("adopted")
                                        ? new Read(
                                                p.kind(),
                                                p.type(),
                                                p.text().replaceFirst(" has ", " adopted ")
                                                        + when.map(t -> " " + t.text()).orElse(""),
                                                when.map(TimePhrases.Resolved::instant)
                                                        .orElse(said),
                                                p.importance())
                                        : p);
    }

    private Optional<Read> possession(Renderer r, String obj, String name, Instant said) {
        String o = obj.toLowerCase(Locale.ROOT).strip();
        String head = lastWord(o);
        boolean relation = Lexicons.RELATIONS.contains(head);
        if (Lexicons.CONDITIONS.contains(head)) {
            return Optional.of(read("attribute", r.subject() + " has " + o, said, 0.8));
        }
        if (!relation && !Lexicons.BELONGINGS.contains(head)) {
            return Optional.empty();
        }
        String text = r.subject() + " has " + o + (name == null ? "" : " named " + name);
        return Optional.of(
                new Read(
                        relation ? "relationship" : "attribute",
                        relation ? MemoryType.SOCIAL : MemoryType.SEMANTIC,
                        text,
                        said,
                        0.7));
    }

    private Optional<Read> plan(Renderer r, String vp, Instant said, boolean wants) {
        String v = vp.strip();
        if (v.matches(
                        "(?i)^(see|seeing|find out|finding out|figure|figuring|know|knowing|hear|hearing|keep|keeping|help|helping|make it|making it|be|being|pass it|do it|do that|try it|give it)\\b.*")
                || v.matches("(?i).*\\b(it|that|this|them|something)\\b.*")
                || vague(v)) {
            return Optional.empty();
        }
        if (v.matches("(?i)^[a-z]+ing\\b.*")) {
            String gerund = v;
            return withTime(r, gerund, said)
                    .filter(t -> contentWords(t.text()) >= 2)
                    .map(
                            t ->
                                    new Read(
                                            "plan",
                                            MemoryType.SEMANTIC,
                                            r.subject() + " is planning on " + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((v.matches("^(?:[Tt]he|[Aa]n?|[A-Z]) .*") || v.matches("^[A-Z].*"))
                && !v.matches("^(?i)(a|an) (bit|lot|little).*")) {
            v = "go to " + v;
        }
        return withTime(r, v, said)
                .filter(t -> contentWords(t.text()) >= 2)
                .filter(
                        t ->
                                !t.text()
                                        .matches(
                                                "(?i)^(be|do|see|try|say|tell|get|make|take|go) (it|that|this|you|them|so|fine|ok|okay|there|back|home)\\b.*"))
                .map(
                        t ->
                                new Read(
                                        "plan",
                                        MemoryType.SEMANTIC,
                                        r.subject()
                                                + (wants ? " wants to " : " plans to ")
                                                + t.text(),
                                        t.at(),
                                        0.6));
    }

    private Optional<Read> event(Renderer r, String verb, String rest, Instant said) {
        if (!Lexicons.EVENT_VERBS.contains(verb) || rest == null || rest.isBlank()) {
            return Optional.empty();
        }
        String tail = rest.strip();
        String lower = tail.toLowerCase(Locale.ROOT);
        switch (verb) {
            case "got" -> {
                if (!lower.matches(
                                "^(a|an|my|our|the|married|engaged|promoted|divorced|accepted|hired|into)\\b.*")
                        || lower.matches("^(a|an) (lot|bit|chance|feeling|sense)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "had" -> {
                if (!lower.matches("^(a|an|my|our)\\b.*")
                        || lower.matches(
                                "^(a|an) (great|good|wonderful|lovely|fun|nice|amazing|blast|lot|bit|tough|hard|rough|long|busy|crazy|chance|feeling|thought|moment|day|time|weekend|week|night|idea)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "went" -> {
                if (!lower.matches(
                                "^(to|on|for|back to|out to|hiking|camping|fishing|skiing|swimming|kayaking|surfing|shopping)\\b.*")
                        || lower.matches(
                                "^(to|on|for) (it|that|this|there|bed|sleep|work|school|the store|the gym)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "made",
                    "took",
                    "saw",
                    "read",
                    "watched",
                    "tried",
                    "spent",
                    "gave",
                    "left",
                    "finally" -> {
                if (!lower.matches("^(a|an|my|our|the|some|[0-9]+|two|three|[A-Z]).*")
                        || lower.matches(
                                "^(a|an|the) (lot|bit|mistake|decision|point|step|break|while|look|moment|second|minute)\\b.*")
                        || verb.equals("left")
                        || verb.equals("finally")) {
                    return Optional.empty();
                }
            }
            default -> {}
        }
        if ((Lexicons.EMPTY_OBJECTS.contains(firstWord(tail))
                        && !lower.matches("^(to|on|for|into|up|out|back|at|with|in|off|over)\\b.*"))
                || lower.matches(
                        "^(a|an|the) (chance|opportunity|feeling|sense|courage|strength|time)\\b.*")) {
            return Optional.empty();
        }
        return withTime(r, verb + " " + tail, said)
                .filter(t -> contentWords(t.text()) >= 2)
                .map(
                        t ->
                                new Read(
                                        "event",
                                        MemoryType.EPISODIC,
                                        r.subject() + " " + t.text(),
                                        t.at(),
                                        t.at().equals(said) ? 0.55 : 0.65));
    }

    /** A verb phrase cut to its statement, with its time phrase resolved and put at the end. */
    private record Timed(String text, Instant at) {}

    private Optional<Timed> withTime(Renderer r, String phrase, Instant said) {
        Optional<String> cut = phrase(phrase, 24);
        if (cut.isEmpty() || cut.get().matches("(?i).*\\b(you|your|yours|yourself)\\b.*")) {
            return Optional.empty();
        }
        Optional<TimePhrases.Resolved> when = TimePhrases.first(cut.get(), said);
        String p = when.map(w -> cutOut(cut.get(), w)).orElse(cut.get());
        return phrase(r.thirdPerson(p), 14)
                .map(
                        text ->
                                new Timed(
                                        text + when.map(w -> " " + w.text()).orElse(""),
                                        when.map(TimePhrases.Resolved::instant).orElse(said)));
    }

    private Optional<String> object(Renderer r, String obj) {
        Optional<String> o = phrase(obj, 10);
        if (o.isEmpty()) {
            return Optional.empty();
        }
        String first = firstWord(o.get());
        if (vague(o.get())) {
            return Optional.empty();
        }
        if (Lexicons.EMPTY_OBJECTS.contains(first)
                || o.get().matches("(?i).*\\b(you|your|yours|yourself)\\b.*")
                || o.get()
                        .matches(
                                "(?i)^(that|how|what|when|where|it when|the way|the idea|the fact|being|seeing|hearing)\\b.*")) {
            return Optional.empty();
        }
        return Optional.of(r.thirdPerson(o.get()));
    }

    private static Optional<String> organisation(String org) {
        return phrase(org, 5)
                .filter(o -> o.matches("^[A-Z0-9].*") || o.matches("(?i)^(a|an|the) .*"));
    }

    /**
     * A phrase cut where the statement ends: at a comma, a subordinate clause, an exclamation, a
     * trailing intensifier. Empty when nothing is left or more than {@code maxWords} words are.
     */
    static Optional<String> phrase(String text, int maxWords) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        t =
                t.split(
                                "(?i)(,(?=\\s)|;|:(?=\\s)|!|\\?|\\(| - | – | — |\\.\\.\\.| because | since | which | who | whom | that is | so that | so i | but | when i | while | although | though | and it | and that | and i | and we | as well as | lol| haha| like i said| after the | once the | now that )",
                                2)[0];
        t =
                t.replaceAll(
                        "(?i)\\s+(so much|a lot|too|as well|right now|these days|lately|anymore|at the moment|for now|now|again|already|though|tbh|honestly|haha|lol)$",
                        "");
        t = t.replaceAll("[\\s.!…]+$", "").strip();
        t =
                t.replaceAll(
                                "(?i)\\s+(about|around|roughly|like|some|for|since|from|at|in|on)$",
                                "")
                        .strip();
        if (t.isEmpty()) {
            return Optional.empty();
        }
        int words = t.split("\\s+").length;
        if (words > maxWords) {
            return Optional.empty();
        }
        return Optional.of(t);
    }

    private static String cutOut(String text, TimePhrases.Resolved when) {
        int from = Math.max(0, Math.min(when.from(), text.length()));
        int to = Math.max(from, Math.min(when.to(), text.length()));
        return (text.substring(0, from) + " " + text.substring(to)).replaceAll("\\s+", " ").strip();
    }

    private static Read read(String kind, String text, Instant said, double importance) {
        return new Read(kind, MemoryType.SEMANTIC, text, said, importance);
    }

    private static Read social(String text, Instant said) {
        return new Read("relationship", MemoryType.SOCIAL, text, said, 0.75);
    }

    private static String article(String role) {
        String r = role.strip();
        if (r.matches("(?i)^(a|an|the) .*") || r.matches("^[A-Z].*")) {
            return r;
        }
        return (r.matches("(?i)^[aeiou].*") ? "an " : "a ") + r;
    }

    /** Whether every content word of the phrase is one that says nothing in particular. */
    static boolean vague(String phrase) {
        List<String> words =
                Arrays.stream(phrase.toLowerCase(Locale.ROOT).split("[^\\p{L}0-9$]+"))
                        .filter(w -> w.length() > 2 && !io.engram.text.Text.STOPWORDS.contains(w))
                        .toList();
        return words.isEmpty() || Lexicons.VAGUE.containsAll(words);
    }

    private static String firstWord(String s) {
        return s.strip().split("\\s+")[0].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}0-9'$]", "");
    }

    private static String lastWord(String s) {
        String[] w = s.strip().split("\\s+");
        return w[w.length - 1].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}0-9'-]", "");
    }

    private static int contentWords(String s) {
        return (int)
                Arrays.stream(s.toLowerCase(Locale.ROOT).split("[^\\p{L}0-9$]+"))
                        .filter(w -> w.length() > 2 && !io.engram.text.Text.STOPWORDS.contains(w))
                        .count();
    }
}
