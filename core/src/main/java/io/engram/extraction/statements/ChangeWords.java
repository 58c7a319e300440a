package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** The words a sentence tells of a change in, now: "switched", "moved", "these days", "new". */
final class ChangeWords {

    private ChangeWords() {}

    /** Words that tell of a change now, not of one planned, wished or remembered. */
    static final Pattern CHANGE =
            Pattern.compile(
                    "(?i)\\b(?:now|these days|nowadays|new|anymore|any more|no longer|no more|switched|changed|moved|relocated|became|become|hired|joined|going forward|from now on|bought|adopted|transferred|replaced|passed away|sold|left|quit|laid off|instead|stopped|upgraded|ended up|closed on|made the jump|jumped|raised|bumped|promoted|stretch|stolen|totaled|got an?|settled|parted ways|brought me on|took me on|retired|traded|swapped|cancell?ed|ported|unpacked|onboarding|orientation|first (?:day|week|month) (?:at|with)|got the keys|officially|resident|since (?:last|this|early|late|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|fall|autumn|winter|\\d))\\b");

    /**
     * The words {@link #CHANGE} can begin with. A sentence with none of them cannot match it, and
     * most sentences have none: checking the words first spares the pattern's many alternatives
     * (2.8 µs a sentence on LoCoMo's).
     */
    static final Set<String> STARTS =
            Set.of(
                    ("now these nowadays new anymore any no switched changed moved relocated became"
                                    + " become hired joined going from bought adopted transferred"
                                    + " replaced passed sold left quit laid instead stopped upgraded"
                                    + " ended closed made jumped raised bumped promoted stretch"
                                    + " stolen totaled got settled parted brought took retired"
                                    + " traded swapped cancelled canceled ported since unpacked onboarding"
                                    + " orientation first officially resident")
                            .split(" "));

    /** Whether the sentence tells of a change now, in the words of {@link #CHANGE}. */
    static boolean tell(String s) {
        return CHANGE.matcher(s).find();
    }

    /**
     * Whether a word of the sentence is one {@link #CHANGE} can begin with: false means {@link
     * #tell} is false. Words are split where the pattern's word bounds are.
     */
    static boolean mayTell(String s) {
        int start = -1;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ' ';
            boolean word =
                    c >= 'a' && c <= 'z'
                            || c >= 'A' && c <= 'Z'
                            || c >= '0' && c <= '9'
                            || c == '_';
            if (word && start < 0) {
                start = i;
            } else if (!word && start >= 0) {
                if (i - start <= 11
                        && STARTS.contains(s.substring(start, i).toLowerCase(Locale.ROOT))) {
                    return true;
                }
                start = -1;
            }
        }
        return false;
    }
}
