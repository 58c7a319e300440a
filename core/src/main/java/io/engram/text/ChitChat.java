package io.engram.text;

import java.util.regex.Pattern;

/**
 * Greetings, thanks and acknowledgements: messages that carry nothing to remember and need no
 * memory to answer. Shared by extraction (nothing to store) and recall (nothing to search).
 */
public final class ChitChat {

    private static final Pattern PATTERN =
            Pattern.compile(
                    "(?i)^\\W*(hi|hey|hello|hiya|yo|good (morning|afternoon|evening|night)|bye|goodbye|see (you|ya)|"
                            + "thanks?( you)?( so much| a lot)?|thank u|thx|ty|ok(ay)?|k|sure|cool|nice|great|awesome|"
                            + "lol|haha+|hmm+|yes|yeah|yep|no|nope|got it|sounds good|of course|you too|"
                            + "no problem|np|welcome|you're welcome|how are you( doing)?|what's up|sup|wow|omg|"
                            + "that's (great|cool|awesome|nice|amazing)|me too|same here|right|exactly|indeed|"
                            + "i see|oh( i see)?|alright|all right)\\W*$");

    private ChitChat() {}

    /** True when the whole text is a greeting, thanks or acknowledgement. */
    public static boolean matches(String text) {
        return PATTERN.matcher(text).matches();
    }
}
