package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The speaker leaving something behind, whatever takes its place: "quit salesforce", "cancelled my
 * planet fitness membership", "moved out of Boston", "Sam and I split in april". Said alone, what
 * was left is only words; read against the one memory whose value they name ("Dana works at
 * Salesforce"), it ends that memory and is stored as its negation ("Dana no longer works at
 * Salesforce."), so a new value said in words no reader knows does not leave the old one current.
 *
 * @param subject the speaker
 * @param how the verb it was left with, in lower case ("quit", "moved out of"), or "" for a split
 * @param left the words of what was left, as said ("my planet fitness membership")
 * @param sentence the sentence it was told in
 * @param at when it was said
 */
public record Departure(String subject, String how, String left, String sentence, Instant at) {

    /**
     * The speaker's own leaving, first in its clause: "I quit X", "just sold the X", "we left X".
     */
    private static final Pattern LEFT =
            Pattern.compile(
                    "(?i)(?:^|[,;:] |\\b(?:and|so|but|finally|officially|just|today|yesterday|anyway|anyways|btw|also|update|welp|ok|okay) |\\b(?:i|we)(?:'ve| have)?(?: just| finally| officially)? )"
                            + "(?:just |finally |officially |recently |already )?"
                            + "(?<how>quit|left(?! off| over| for)|cancell?ed|sold|ditched|dropped(?! off| by| in)|dumped|closed|gave up(?: on)?|got rid of|traded in|traded(?= (?:the |my |our )?[\\p{L}0-9 -]{1,30}? in\\b)|graduated from|resigned from|(?:handed|put|turned) in (?:my )?(?:notice|resignation) (?:at|to)|gave (?:in )?(?:my )?notice (?:at|to)|"
                            + "moved (?:out of|away from|from)|switched (?:away )?from|stopped (?:going to|using|supporting|playing|learning|seeing|banking with|volunteering (?:at|with|for)|working (?:at|for)|attending|doing)|stopped(?= [a-z]+ing\\b)|"
                            + "broke up with|split (?:up )?with|divorced|parted ways with) "
                            + "(?<left>[^,;:.!?]+)");

    /** "my car got totaled", "the civic was stolen": a thing of the speaker's gone by an event. */
    private static final Pattern GONE =
            Pattern.compile(
                    "(?i)(?:^|[,;:] |\\b(?:and|so|but|ugh|welp) )(?:my|our|the) (?<left>[\\p{L}0-9 -]{2,30}?) (?:just |finally )?(?:got|was|has been|is) (?:officially )?(?:totaled|totalled|written off|stolen|wrecked|repossessed)\\b");

    /** "no more glasses for me", "so no more bus": what the speaker does without now. */
    private static final Pattern NO_MORE =
            Pattern.compile(
                    "(?i)(?:^|[,;:] |\\b(?:so|and|means|meaning) )no more (?<left>[\\p{L}-]+(?: [\\p{L}-]+)?)(?: for (?:me|us))?(?=$|[ ,;:.!]*$|[,;:.!])");

    /** "today was my last day at Google", "last day at acme was friday". */
    private static final Pattern LAST_DAY =
            Pattern.compile(
                    "(?i)(?:^|[,;:] |\\b(?:was|is|it's|today) )(?:my |our )?(?:last|final) (?:day|shift) (?:at|with) (?<left>[^,;:.!?]+)");

    /** "I'm done with Arsenal", "we're through with Comcast". */
    private static final Pattern DONE_WITH =
            Pattern.compile(
                    "(?i)\\b(?:i'm|i’m|im|i am|we're|we’re|we are) (?:officially |finally |so )?(?:done|finished|through) with (?<left>[^,;:.!?]+)");

    /**
     * "Sam and I split up", "me and priya broke up", "marcus and i are done": the partner, named
     * first or after.
     */
    private static final Pattern SPLIT =
            Pattern.compile(
                    "(?i)(?:^|[,;:] |\\b(?:so|but|and) )(?:(?:me|i) (?:and|n|&) (?<other>[\\p{L}'-]+)|(?<left>[\\p{L}'-]+) (?:and|n|&) (?:i|me)) (?:have |had |just |finally |officially |are |got )?(?:officially |now )?(?:split|broke up|separated|divorced|called it quits|(?:done|over|finished|through)(?!\\s+(?:with|for|at|in|on|by|\\p{L}+ing)\\b))\\b");

    private static final Pattern DIVORCED = Pattern.compile("(?i)\\bdivorce[ds]?\\b");

    private static final List<Pattern> FORMS =
            List.of(SPLIT, LEFT, DONE_WITH, LAST_DAY, GONE, NO_MORE);

    /** Words that make the leaving not the speaker's, not done, or not now. */
    private static final Pattern NOT_DONE =
            Pattern.compile(
                    "(?i)\\b(?:for (?:a|the|one|two|a few|a couple of) (?:day|days|week|weeks|weekend|bit|while|month|months)|back (?:on|in|next|tomorrow|home)|if|thinking|think|want|wants|wanna|might|maybe|(?<!in |since |last |this |early |late |mid |end of )may(?! [0-9])|will|'ll|’ll|gonna|going to|should|would|could|can|plan|planning|considering|about to|(?<!getting |get |got |gotten |be )used to|years ago|when i was|found (?:it|him|her|them)|got (?:it|him|her|them) back|recovered|came back|turned up|my (?:"
                            + ValueHint.OTHER
                            + "))\\b");

    /**
     * Words that deny or all but deny the leaving, within its own clause: "didn't quit", "never
     * left", but not "quit the rotary club, not my crowd".
     */
    private static final Pattern DENIED =
            Pattern.compile("(?i)\\b(?:not|never|almost|nearly)\\b|n't\\b|n’t\\b");

    /** The clause of {@code s} around {@code from}..{@code to}: between its commas or stops. */
    /** {@code clause} up to a "but" or an emoji that starts another thought. */
    private static String ownPart(String clause) {
        Matcher next = NEXT_THOUGHT.matcher(clause);
        return next.find() ? clause.substring(0, next.start()) : clause;
    }

    private static final Pattern NEXT_THOUGHT =
            Pattern.compile("(?i)\\s(?:but|though|tho|although)\\s|[\\p{So}\\x{1F000}-\\x{1FAFF}]");

    private static String clauseAround(String s, int from, int to) {
        int start = from;
        while (start > 0 && ",;:!?".indexOf(s.charAt(start - 1)) < 0) {
            start--;
        }
        int end = to;
        while (end < s.length() && ",;:!?".indexOf(s.charAt(end)) < 0) {
            end++;
        }
        return s.substring(start, end);
    }

    /** Words of an object too vague to name a value. */
    private static final Set<String> FILLER =
            Set.of(
                    "my",
                    "our",
                    "the",
                    "a",
                    "an",
                    "old",
                    "whole",
                    "all",
                    "of",
                    "at",
                    "for",
                    "in",
                    "with",
                    "being",
                    "membership",
                    "account",
                    "accounts",
                    "subscription",
                    "plan",
                    "job",
                    "it",
                    "them",
                    "that",
                    "this",
                    "lol",
                    "finally",
                    "today",
                    "yesterday",
                    "last",
                    "week",
                    "month",
                    "year",
                    "ago",
                    "now",
                    "place");

    /** Where what was left ends: its place, time or reason follows. */
    private static final Pattern OBJECT_END =
            Pattern.compile(
                    "(?i) (?:in|into|at|for|to|from|with|because|since|after|and|but|so|last|this|on) ");

    /** The leaving {@code sentence} of {@code speaker}'s tells of, if any. */
    public static Optional<Departure> of(String speaker, String sentence, Instant said) {
        String s = sentence.strip();
        if (s.isEmpty() || s.endsWith("?") || TimePhrases.future(s)) {
            return Optional.empty();
        }
        boolean cued = io.engram.text.Text.containsAny(s, STEMS) && CUE.matcher(s).find();
        String left = null;
        String how = "";
        // "Tom and I are officially divorced": the partner, not what follows "divorced".
        for (Pattern p : cued ? FORMS : List.<Pattern>of()) {
            Matcher m = p.matcher(s);
            if (m.find()) {
                // What was left may be a relative's ("moved out of my parents' place"): what
                // makes the leaving another's is looked for outside it.
                String around = s;
                if (p == LEFT) {
                    int object = m.start("left") + OBJECT_END.split(m.group("left"), 2)[0].length();
                    around = s.substring(0, m.start("left")) + s.substring(object);
                }
                // A partner's parting is read in its own clause: "me n tom are done 😢 but ive been
                // seeing jake for a few weeks" is no parting "for a few weeks".
                String scope = p == SPLIT ? ownPart(clauseAround(s, m.start(), m.end())) : around;
                if (NOT_DONE.matcher(scope).find()
                        || DENIED.matcher(clauseAround(s, m.start(), m.end())).find()) {
                    return Optional.empty();
                }
                left =
                        (p == SPLIT && m.group("other") != null
                                        ? m.group("other")
                                        : m.group("left"))
                                .strip();
                how = p == LEFT ? m.group("how").toLowerCase(Locale.ROOT) : "";
                break;
            }
        }
        if (left == null) {
            Optional<Lapses.Found> lapse = Lapses.find(s);
            if (lapse.isEmpty()) {
                return Optional.empty();
            }
            Lapses.Found f = lapse.get();
            String around =
                    f.how().equals(Lapses.THEIRS)
                            ? s.substring(f.end())
                            : s.substring(0, f.start()) + s.substring(f.end());
            if (NOT_DONE.matcher(around).find()
                    || !Lapses.deniesByForm(f.how())
                            && DENIED.matcher(clauseAround(s, f.start(), f.end())).find()) {
                return Optional.empty();
            }
            left = f.left();
            how = f.how();
        }
        // "left my umbrella in boston": what was left is what comes before its place or reason.
        left = OBJECT_END.split(left, 2)[0];
        return words(left).isEmpty()
                ? Optional.empty()
                : Optional.of(new Departure(speaker, how, left, s, said));
    }

    /**
     * Stems of the words every leaving is told in, without a first letter that may be a capital: a
     * test cheaper than {@link #CUE}.
     */
    private static final String[] STEMS = {
        "uit",
        "done",
        "over",
        "eft",
        "ancel",
        "old",
        "itch",
        "ropp",
        "ump",
        "lose",
        "ave up",
        "ot rid",
        "raded",
        "oved",
        "witch",
        "topp",
        "roke",
        "plit",
        "ivorc",
        "arted",
        "one with",
        "inish",
        "hrough",
        "longer",
        "ast day",
        "raduated",
        "otal",
        "ritten off",
        "tolen",
        "recked",
        "eposs",
        "inal day",
        "eparat",
        "otice",
        "esign",
        "o more"
    };

    /** A cheap test for the words every leaving is told in. */
    private static final Pattern CUE =
            Pattern.compile(
                    "(?i)\\b(?:quit|left|cancell?ed|sold|ditched|dropped|dumped|closed|gave up|got rid|traded|moved|switched|stopped|broke up|split|divorced|parted|done|over|finished|through|no longer|separated|quits|last day|final day|graduated|resigned|notice|resignation|no more|totaled|totalled|written off|stolen|wrecked|repossessed)\\b");

    /** The words of {@code text} that can name a value, in lower case. */
    static List<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}0-9'&+-]+"))
                // "my parents' place", "my mum's": the words, not their possessive marks.
                .map(Departure::unpossessed)
                .filter(w -> !w.isBlank() && !FILLER.contains(w))
                .toList();
    }

    /**
     * Whether what was left is {@code value} (a stored value, "Planet Fitness", "a 2012 Honda
     * Civic"): every word said of it is a word of the value ("the civic", "my planet fitness
     * membership"), or the value's words all appear in what was said.
     */
    public boolean names(String value) {
        // "gone off espresso martinis" names "an espresso martini".
        List<String> said = stems(words(left));
        List<String> stored = stems(words(value.replaceFirst("^(?:19|20)\\d{2} ", "")));
        if (said.isEmpty() || stored.isEmpty()) {
            return false;
        }
        return stored.containsAll(said)
                || said.containsAll(stored) && said.size() <= stored.size() + 1;
    }

    /**
     * Whether what was left is named in {@code content}, a statement of the subject's with no value
     * read from it ("Dana uses Spotify.", "Dana goes to Planet Fitness."): every word said of it is
     * a word of the statement after its subject.
     */
    public boolean namedIn(String content) {
        String c = content.strip();
        if (!c.startsWith(subject + " ") && !c.startsWith(subject + "'s ")) {
            return false;
        }
        List<String> stored = stems(words(c.substring(subject.length())));
        // "moved out of my parents' house": the people lived with, wherever.
        List<String> said =
                stems(words(left)).stream()
                        .filter(w -> !DWELLINGS.contains(w) || stored.contains(w))
                        .toList();
        return !said.isEmpty() && stored.containsAll(said);
    }

    private static final Set<String> DWELLINGS = Set.of("house", "home", "flat", "apartment");

    /** Words without the endings a verb or noun takes: "smoking" and "smokes" are "smok". */
    private static final Pattern ENDING = Pattern.compile("(?:ing|es|ed|s)$");

    /** "parents'" and "mum's" as "parents" and "mum". */
    private static String unpossessed(String w) {
        return w.endsWith("'s")
                ? w.substring(0, w.length() - 2)
                : w.endsWith("'") ? w.substring(0, w.length() - 1) : w;
    }

    private static List<String> stems(List<String> words) {
        return words.stream()
                .map(w -> w.length() > 4 ? ENDING.matcher(w).replaceFirst("") : w)
                .toList();
    }

    /** Words that make leaving a place a move: "left the mission, living in noe valley now". */
    private static final Pattern SETTLED =
            Pattern.compile(
                    "(?i)\\b(?:now|these days|for good|living in|moved|new (?:place|apartment|flat|house|home|city))\\b");

    /**
     * What ends {@code content}, a current statement whose value this leaving names (keyed by
     * {@code key} when it has one): its negation, or for a partner the break-up ("Dana broke up
     * with Elena.", read as single). Empty for a place left in words that tell no move ("I left
     * Boston" is a trip as often).
     */
    public Optional<String> ending(String content, Optional<FactKey> key) {
        String attribute = key.map(FactKey::attribute).orElse("");
        if (how.equals(Lapses.THEIRS)
                && !Lapses.ROLES.contains(attribute.toLowerCase(Locale.ROOT))) {
            // "ellie moved out" ends a housemate, not "Dana lives with Tom and Ellie".
            return Optional.empty();
        }
        if (attribute.equals("residence")
                && !how.startsWith("moved")
                && !SETTLED.matcher(sentence).find()) {
            return Optional.empty();
        }
        if (attribute.equals("relationship status")) {
            String partner =
                    key.get().quoted().replaceFirst("^(?:married|engaged|divorced) to ", "");
            // "Hannah and I are divorced": a marriage ends in a divorce.
            return Optional.of(
                    DIVORCED.matcher(sentence).find()
                            ? subject + " got divorced from " + partner + "."
                            : subject + " broke up with " + partner + ".");
        }
        return NoLonger.of(subject, content);
    }
}
