package io.engram.extraction.statements;

import io.engram.extraction.statements.Rewrites.Rewrite;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A new value told as news of what came with it, rewritten as the value before {@link Clauses}
 * splits the sentence: "retrained as a nurse", "my first paycheck as a software engineer", "so
 * three kids now", "we've been in Chicago since March".
 */
final class NewsRewrites {

    private NewsRewrites() {}

    /** Words of a time long enough to live somewhere since, not a trip's ("since Tuesday"). */
    private static final String SINCE_A_WHILE =
            "since (?:january|february|march|april|may|june|july|august|september|october"
                    + "|november|december|spring|summer|autumn|fall|winter|last (?:year|spring"
                    + "|summer|autumn|fall|winter)|(?:19|20)\\d\\d)";

    static final List<Rewrite> ALL =
            List.of(
                    // "I've retrained as a nurse": what one is now.
                    new Rewrite(
                            List.of(" as a", " as an"),
                            Pattern.compile(
                                    "(?i)\\bI (?:have |am |just |finally |recently )*(?:retrained|re-trained|requalified|re-qualified|qualified|now working|now work) as (an? [a-z]+(?: [a-z]+)?)(?=[,.!;]|$| and | now\\b| last\\b| this\\b)(?: now)?(?: and)?"),
                            // What it came with ends the clause: "…; started on the wards".
                            "I am $1 now;"),
                    // "Just got my first paycheck as a software engineer!": the job paid for.
                    new Rewrite(
                            List.of("first "),
                            Pattern.compile(
                                    "(?i)^(?:(?:I )?(?:just |finally )?(?:got|received|had|did|finished|survived) )?my first (?:paycheck|paycheque|payslip|pay check|salary|day|week|shift|month) as (an? [a-z]+(?: [a-z]+)?)(?=[,.!;]|$)"),
                            "I am $1 now"),
                    // "We had a baby girl last week, so three kids now!": the count now, in
                    // a sentence of the speaker's own.
                    new Rewrite(
                            List.of(" now"),
                            Pattern.compile(
                                    "(?i)^((?:I|we)\\b[^.!?]*?),? so (?:we have |I have |we've got |I've got |that's |that is )?(two|three|four|five|six|\\d) (kids|children|dogs|cats) now\\b"),
                            "$1, so I have $2 $3 now"),
                    // "We've been in Chicago since March": where one lives.
                    new Rewrite(
                            List.of("been in "),
                            Pattern.compile(
                                    "\\b(I|[Ww]e) (?:have been|['’]ve been|been) (?:living )?in ([A-Z][\\p{L}.'-]+(?: [A-Z][\\p{L}.'-]+)?) (?i:"
                                            + SINCE_A_WHILE
                                            + ")\\b"),
                            "$1 live in $2 since"));
}
