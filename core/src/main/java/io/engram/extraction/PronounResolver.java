package io.engram.extraction;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites first-person statements in the speaker's name ("My budget is" → "Alice's budget is")
 * and, when the listener is known, second-person ones ("your dog" → "Bob's dog"), so a fact stands
 * on its own. One pass over the text per person.
 */
final class PronounResolver {

    /** Matched form (lower case, one space, straight apostrophe) → replacement, %s = name. */
    private static final Map<String, String> FIRST = new HashMap<>();

    private static final Map<String, String> SECOND = new HashMap<>();

    static {
        FIRST.put("i am", "%s is");
        FIRST.put("i'm", "%s is");
        FIRST.put("im", "%s is");
        FIRST.put("i have", "%s has");
        FIRST.put("i've", "%s has");
        FIRST.put("i was", "%s was");
        FIRST.put("i'll", "%s will");
        FIRST.put("i'd", "%s would");
        FIRST.put("i do", "%s does");
        FIRST.put("i", "%s");
        FIRST.put("myself", "%s");
        FIRST.put("my", "%s's");
        FIRST.put("mine", "%s's");
        FIRST.put("me", "%s");
        FIRST.put("we are", "%s and others are");
        FIRST.put("we're", "%s and others are");
        FIRST.put("we've", "%s and others have");
        FIRST.put("we", "%s and others");
        FIRST.put("our", "%s's");
        FIRST.put("ours", "%s's");
        SECOND.put("you are", "%s is");
        SECOND.put("you're", "%s is");
        SECOND.put("you've", "%s has");
        SECOND.put("your", "%s's");
        SECOND.put("yours", "%s's");
        SECOND.put("you", "%s");
    }

    // "I" only as a capital; the other forms in any case. Longer forms first.
    private static final Pattern FIRST_PERSON =
            Pattern.compile(
                    "\\b(?:I\\s+am|I['’]m|Im|I\\s+have|I['’]ve|I\\s+was|I['’]ll|I['’]d|I\\s+do|I"
                            + "|(?i:myself|my|mine|me|we\\s+are|we['’]re|we['’]ve|we|ours|our))\\b");
    private static final Pattern SECOND_PERSON =
            Pattern.compile("(?i)\\b(?:you\\s+are|you['’]re|you['’]ve|yours|your|you)\\b");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private PronounResolver() {}

    static String resolve(String sentence, String speaker, String listener) {
        String out = apply(sentence, FIRST_PERSON, FIRST, speaker);
        if (listener != null) {
            out = apply(out, SECOND_PERSON, SECOND, listener);
        }
        return out;
    }

    static boolean hasFirstPerson(String sentence) {
        return FIRST_PERSON.matcher(sentence).find();
    }

    private static String apply(
            String text, Pattern pattern, Map<String, String> forms, String name) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        int at = 0;
        do {
            String key =
                    WHITESPACE
                            .matcher(m.group().toLowerCase(Locale.ROOT).replace('’', '\''))
                            .replaceAll(" ");
            String replacement = String.format(forms.get(key), name);
            out.append(text, at, m.start()).append(replacement);
            at = m.end();
        } while (m.find());
        out.append(text, at, text.length());
        return out.toString().replace(name + "'s's", name + "'s");
    }
}
