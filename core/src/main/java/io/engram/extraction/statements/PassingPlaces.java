package io.engram.extraction.statements;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the speaker lives or works, told in passing by what of theirs is there: "our landlord in
 * peckham still hasnt fixed the boiler", "we're in a shared house in brixton", "living in london is
 * a scam", "my manager at tesco had me on the tills", "on my lunch break at Costa". Only a place or
 * an employer written as a name (capitalised, or a lower-case word that is no everyday place word)
 * is read; "my team at work", "my flat in town" give nothing.
 */
final class PassingPlaces {

    private PassingPlaces() {}

    /**
     * "I've been in Glasgow 3 years now", "been in Leeds since 2019": where someone lives, told by
     * how long; only a capitalised place (not "a relationship", "the Army") and years or a year.
     */
    static final Pattern BEEN_IN =
            Pattern.compile(
                    "(?i)^I have been in (?<place>(?-i:[A-Z])[\\p{L}'-]+(?: (?-i:[A-Z])[\\p{L}'-]+){0,2}) (?:(?:for )?(?:(?:the )?(?:past|last) )?(?:\\d{1,2}|a few|a couple of|two|three|four|five|six|seven|eight|nine|ten|many) (?:yrs|years)|since (?:19|20)\\d\\d)(?: now)?(?:,? (?:and|but) .*)?$");

    /** One to three words, ended where a name ends in chat: a verb, a comment, punctuation. */
    private static final String NAME =
            "(?<n>[\\p{L}'’&-]+(?: [\\p{L}'’&-]+){0,2}?)(?=\\s*(?:$|[,.!?;:)(]|[\\p{So}])|\\s(?i:is|are|was|were|has|have|had|hasnt|hasn't|isnt|isn't|still|so|and|but|which|who|where|lol|tbh|rn|ngl|now|again|always|never|just|literally|honestly|made|makes|put|gave|got|kept|keeps|wants|said|says|will|would|can|cant|can't|on|for|at|in|with|to|from|the|a|my|me|is|since|every|each|all|n|&)\\b)";

    /** What is the speaker's where they live, before "in": "our landlord in …". */
    private static final Pattern HOME =
            Pattern.compile(
                    "(?i)\\b(?:(?:my|our) (?:landlord|landlady|flat|house|place|street|road|neighbou?rs?|flatmates?|housemates?|street)|(?:i['’]?m|im|i am|we['’]?re|were|we are) (?:now |still )?in (?:a|an|our|my) (?:(?:little|tiny|new|lovely|shared|rented|two[- ]bed|2[- ]bed|one[- ]bed|1[- ]bed) )*(?:flat|house|terrace|semi|studio|bedsit|apartment|maisonette|bungalow|cottage|house ?share|flat ?share)) in "
                            + NAME);

    /** "living in london is a scam": the speaker's home, as the subject of a remark. */
    private static final Pattern LIVING =
            Pattern.compile("(?i)^living in " + NAME + " (?:is|has been|means)\\b");

    /** What is the speaker's where they work, before "at": "my manager at …". */
    private static final Pattern WORK =
            Pattern.compile(
                    "(?i)\\b(?:(?:my|our) (?:manager|boss|line manager|supervisor|colleagues?|coworkers?|co-workers?|shift|shifts|team|desk|branch|store|ward|department|dept|payslip|first payslip)|(?:(?:on|during) )?my (?:lunch |tea |coffee )?break) (?:at|from|with) "
                            + NAME);

    /** "our office in canary wharf is like a fridge": where the speaker's office is. */
    private static final Pattern OFFICE =
            Pattern.compile("(?i)\\b(?:my|our) office (?:is )?in " + NAME);

    /** "10 yrs at john lewis now", "been at Deloitte 6 years": where one works, by how long. */
    private static final Pattern YEARS_AT =
            Pattern.compile(
                    "(?i)^(?:I have )?(?:been )?(?:(?:\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten) (?:yrs|years) at "
                            + NAME
                            + "|been at "
                            + NAME.replace("?<n>", "?<m>")
                            + " (?:for )?(?:\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten) (?:yrs|years))");

    /** Words that make it someone else's, or not now. */
    private static final Pattern NOT_NOW =
            Pattern.compile(
                    "(?i)\\b(?:old|former|ex|previous|last|new|next|future|used to|when i|if|might|maybe|would|could|should|thinking|hoping|want|wanna|gonna|going to|interview|applied|his|her|their|your|ur|mum['’]?s|mom['’]?s|dad['’]?s|sister['’]?s|brother['’]?s|friend['’]?s)\\b");

    /** Where {@code clause} tells the speaker lives or works, as {@code r}'s statement, if one. */
    static Optional<Read> of(Renderer r, String clause, Instant said) {
        // Every form has one of these words; most clauses have none.
        if (!(clause.contains(" in ")
                || clause.contains(" at ")
                || clause.contains(" from ")
                || clause.contains(" with "))) {
            return Optional.empty();
        }
        Matcher m;
        if ((m = HOME.matcher(clause)).find() || (m = LIVING.matcher(clause)).find()) {
            if (mine(clause, m)) {
                return StatementReaders.place(r.alone(), m.group("n"), said, false);
            }
            return Optional.empty();
        }
        if ((m = OFFICE.matcher(clause)).find()) {
            Optional<String> place =
                    mine(clause, m) ? Phrases.phrase(m.group("n"), 3) : Optional.empty();
            return place.filter(p -> p.matches("^[A-Z].*"))
                    .or(() -> place.flatMap(Phrases::lowerName))
                    .map(
                            p ->
                                    Read.of(
                                            "attribute",
                                            r.possessive() + " office is in " + p,
                                            said,
                                            0.7));
        }
        if ((m = WORK.matcher(clause)).find() || (m = YEARS_AT.matcher(clause)).find()) {
            String org =
                    m.pattern() == YEARS_AT && m.group("n") == null ? m.group("m") : m.group("n");
            if (!mine(clause, m) || org.matches("(?i)(?:a|an|the|my|our) .*")) {
                return Optional.empty();
            }
            return StatementReaders.organisation(org)
                    .map(
                            o ->
                                    new Read(
                                            "attribute",
                                            MemoryType.SEMANTIC,
                                            r.subject() + " works at " + o,
                                            said,
                                            0.75));
        }
        return Optional.empty();
    }

    private static boolean mine(String clause, Matcher m) {
        String around =
                clause.substring(Math.max(0, m.start() - 30), Math.min(clause.length(), m.end()));
        return !NOT_NOW.matcher(around).find();
    }
}
