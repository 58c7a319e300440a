package io.engram.query;

import io.engram.text.Text;
import io.engram.text.Values;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Makes a vague follow-up searchable: "how much?" after "I'm planning the Hawaii trip" becomes
 * "hawaii trip planning how much?". Key terms come from the latest user messages in the history.
 */
public final class QueryRewriter {

    /** A message of the conversation so far. */
    public record HistoryMessage(String role, String content) {}

    /** The query to search with, and whether (and with what) it was rewritten. */
    public record Rewrite(String query, boolean rewritten, List<String> addedTerms) {}

    private static final Pattern VAGUE =
            Pattern.compile(
                    "(?i)\\b(how much|how many|how long|what about|and (it|that|them|this)|which one|that one|"
                            + "when|where|why|it|that|this|those|them|there|then|more)\\b");
    static final int MAX_TERMS = 8;

    private QueryRewriter() {}

    public static boolean isVague(String query) {
        Set<String> content = Text.contentWords(query);
        return content.size() <= 1 || (content.size() <= 3 && VAGUE.matcher(query).find());
    }

    public static Rewrite rewrite(String query, List<HistoryMessage> history) {
        if (!isVague(query) || history.isEmpty()) {
            return new Rewrite(query, false, List.of());
        }
        Set<String> own = Text.contentWords(query);
        Set<String> terms = new LinkedHashSet<>();
        int userMessages = 0;
        for (int i = history.size() - 1;
                i >= 0 && userMessages < 2 && terms.size() < MAX_TERMS;
                i--) {
            HistoryMessage m = history.get(i);
            if (!"user".equals(m.role())) {
                continue;
            }
            userMessages++;
            for (Values.Value v : Values.find(m.content())) {
                if (v.kind() == Values.Kind.NAME && terms.size() < MAX_TERMS) {
                    terms.add(v.text().replaceAll("['’]s$", "").toLowerCase(java.util.Locale.ROOT));
                }
            }
            for (String w : Text.contentWords(m.content())) {
                if (terms.size() >= MAX_TERMS) {
                    break;
                }
                if (!own.contains(w) && w.length() > 2 && !w.chars().allMatch(Character::isDigit)) {
                    terms.add(w);
                }
            }
        }
        if (terms.isEmpty()) {
            return new Rewrite(query, false, List.of());
        }
        List<String> added = new ArrayList<>(terms);
        return new Rewrite(String.join(" ", added) + " " + query.strip(), true, added);
    }
}
