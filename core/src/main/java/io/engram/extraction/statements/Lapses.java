package io.engram.extraction.statements;

import io.engram.text.Text;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Leavings chat tells without a verb of leaving: "rip the focus", "let the national trust lapse",
 * "didn't renew the gym", "gone off negronis", "shelved elden ring", "pulled jake out of hillside",
 * "keto is dead to me", "haven't touched the violin in months", "not doing yoga anymore", "done
 * with spurs", and the one who left the speaker's life in their own role: "karen left the company",
 * "dr okafor retired". What was left is words only, read like a {@link Departure}'s against the
 * memory whose value they name; nothing here decides a change alone.
 */
final class Lapses {

    private Lapses() {}

    /** What a form found: how it was left ({@link #THEIRS} for one who left), and the words. */
    record Found(String how, String left, int start, int end) {}

    /** The {@code how} of one who left in their role ("karen left", "dr okafor retired"). */
    static final String THEIRS = "left the role";

    /** The roles one leaves in their own words: "karen left" ends "Dana's manager is Karen". */
    static final Set<String> ROLES =
            Set.of(
                    "manager",
                    "boss",
                    "line manager",
                    "supervisor",
                    "gp",
                    "doctor",
                    "dentist",
                    "therapist",
                    "counsellor",
                    "counselor",
                    "landlord",
                    "landlady",
                    "roommate",
                    "housemate",
                    "flatmate",
                    "trainer",
                    "personal trainer",
                    "teacher",
                    "tutor",
                    "coach",
                    "hairdresser",
                    "barber",
                    "vet",
                    "nanny",
                    "cleaner",
                    "accountant",
                    "physio",
                    "physiotherapist",
                    "pt",
                    "mentor",
                    "team lead");

    /** Where a clause may begin: the sentence's start, after a mark, or after a linking word. */
    private static final String OPEN =
            "(?:^|[,;:.!] |\\b(?:and|so|but|anyway|anyways|ok|okay|honestly|officially|tbh|ngl|lol|update|also|btw) )";

    private static final String OWNED = "(?:(?:the|my|our) )?";

    /**
     * What was left, up to its clause's end; a value is no longer than this (and no regex runs
     * long).
     */
    private static final String OBJECT = "(?<left>[^,;:.!?()]{1,60}?)";

    private static final List<Pattern> OWN =
            List.of(
                    // "rip the focus", "RIP my old laptop": not "rip to my neighbour's cat".
                    Pattern.compile(
                            "(?i)"
                                    + OPEN
                                    + "(?<how>rip|r\\.i\\.p\\.?) (?!to\\b)"
                                    + OWNED
                                    + OBJECT
                                    + "(?=$|[ ]*[,;:.!?(]|\\s+\\P{L})"),
                    Pattern.compile(
                            "(?i)\\b(?<how>let) "
                                    + OWNED
                                    + OBJECT
                                    + " (?:lapse|expire|run out)\\b"),
                    Pattern.compile(
                            "(?i)\\b(?<how>didn'?t renew|did not renew|not renewing|never renewed)"
                                    + " "
                                    + OWNED
                                    + OBJECT
                                    + "(?=$| this| last| in| for|[ ]*[,;:.!?])"),
                    Pattern.compile(
                            "(?i)\\b(?<how>(?:gone|went)(?: right| totally| completely)? off) (?!to\\b|on\\b|at\\b|with\\b|the (?:rails|deep end|grid)\\b)"
                                    + OWNED
                                    + OBJECT
                                    + "(?=$| lately| recently| tbh| ngl|[ ]*[,;:.!?])"),
                    Pattern.compile(
                            "(?i)"
                                    + OPEN
                                    + "(?<how>shelved) "
                                    + OWNED
                                    + OBJECT
                                    + "(?=$|[ ]*[,;:.!?])"),
                    Pattern.compile(
                            "(?i)\\b(?<how>(?:pulled|took|taken|moved) (?:[a-z]+|both (?:girls|boys|kids)|the (?:kids|girls|boys)) out of) "
                                    + OWNED
                                    + OBJECT
                                    + "(?= after| at| in| last| this|$|[ ]*[,;:.!?])"),
                    Pattern.compile(
                            "(?i)"
                                    + OPEN
                                    + OWNED
                                    + "(?<left>[\\p{L}0-9' -]{2,30}?) (?<how>is|are) (?:officially |so )?dead to me\\b"),
                    Pattern.compile(
                            "(?i)\\b(?<how>(?:haven'?t|have not|not) (?:touched|played|picked up)) "
                                    + OWNED
                                    + OBJECT
                                    + " (?:in|for) (?:months|ages|weeks|years|forever|a (?:year|while|long time)|\\d+ (?:months|weeks|years))\\b"),
                    Pattern.compile(
                            "(?i)\\b(?<how>not (?:doing|into|going to|playing|learning|using|at|with)) "
                                    + OWNED
                                    + OBJECT
                                    + " any ?more\\b"),
                    Pattern.compile(
                            "(?i)"
                                    + OPEN
                                    + "(?:(?:i'm|im|i am|we're|were|we are) )?(?:officially |so |totally )?(?<how>done with) "
                                    + OWNED
                                    + OBJECT
                                    + "(?=$| fr\\b| tbh| ngl| lol|[ ]*[,;:.!?])"));

    /**
     * One the speaker had in a role, named first and gone from it: "karen left the company", "sarah
     * left 😢", "dr okafor retired!!", "ellie moved out on sunday". Nothing but the place left or a
     * time may follow: "karen left early" is a day, not a leaving.
     */
    private static final Pattern THEY_LEFT =
            Pattern.compile(
                    "(?i)"
                            + OPEN
                            + "(?<left>(?:dr\\.? )?[\\p{L}][\\p{L}'-]+(?: [\\p{L}][\\p{L}'-]+)?) (?:has |just |finally |officially )*(?<how>left|retired|quit|moved out|got (?:let go|laid off|fired|sacked))"
                            + "(?: (?:the|our|my) (?:company|practice|surgery|firm|team|job|clinic|office|school|flat|house|place|gym))?"
                            + "(?: (?:on \\p{L}+|last \\p{L}+|yesterday|today|this \\p{L}+|in \\p{L}+|over the \\p{L}+))?"
                            + "(?=$|[ ]*[,;:.!?]|\\s+\\P{L}|\\s+(?:and|so|lol|lmao|omg|ugh|haha|tbh|ngl|new|now)\\b)");

    /** Words that start {@link #THEY_LEFT}'s subject but name no one. */
    private static final Set<String> NOT_SOMEONE =
            Set.of(
                    "i",
                    "we",
                    "he",
                    "she",
                    "they",
                    "it",
                    "you",
                    "who",
                    "everyone",
                    "someone",
                    "nobody",
                    "everybody",
                    "the",
                    "my",
                    "our",
                    "his",
                    "her",
                    "their",
                    "that",
                    "this",
                    "mum",
                    "mom",
                    "dad",
                    "he's",
                    "she's",
                    "they've",
                    "just",
                    "finally",
                    "he'd",
                    "she'd",
                    "which",
                    "what",
                    "then",
                    "also",
                    "boss",
                    "manager",
                    "landlord");

    /** Cheap first test: a word every form is told in. */
    private static final String[] WORDS = {
        "rip",
        "RIP",
        "Rip",
        "R.I.P",
        "lapse",
        "expire",
        "run out",
        "renew",
        "off ",
        "shelved",
        "out of",
        "dead to",
        "touched",
        "played",
        "picked up",
        "anymore",
        "any more",
        "done with",
        "left",
        "retired",
        "quit",
        "moved out",
        "let go",
        "laid off",
        "fired",
        "sacked"
    };

    static Optional<Found> find(String s) {
        if (!Text.containsAny(s, WORDS)) {
            return Optional.empty();
        }
        for (Pattern p : OWN) {
            Matcher m = p.matcher(s);
            if (m.find()) {
                String left = m.group("left").strip();
                if (!left.isEmpty()) {
                    return Optional.of(
                            new Found(
                                    m.group("how").toLowerCase(Locale.ROOT),
                                    left,
                                    m.start(),
                                    m.end()));
                }
            }
        }
        Matcher m = THEY_LEFT.matcher(s);
        while (m.find()) {
            String who = m.group("left").toLowerCase(Locale.ROOT);
            String first = who.split(" ")[0];
            // "greg's manager quit": someone of theirs, not the one the speaker had.
            if (!NOT_SOMEONE.contains(first)
                    && !Text.STOPWORDS.contains(first)
                    && !who.contains("'")
                    && !who.contains("’")
                    && !ROLES.contains(who.substring(who.indexOf(' ') + 1))) {
                return Optional.of(new Found(THEIRS, m.group("left").strip(), m.start(), m.end()));
            }
        }
        return Optional.empty();
    }

    /** Whether the form itself says no ("didn't renew", "not doing … anymore"). */
    static boolean deniesByForm(String how) {
        return how.startsWith("didn")
                || how.startsWith("did not")
                || how.startsWith("not ")
                || how.startsWith("never")
                || how.startsWith("haven")
                || how.startsWith("have not");
    }
}
