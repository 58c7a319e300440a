package io.engram.query;

import io.engram.query.agentic.QuestionShape;
import io.engram.text.Text;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words an answer is stored with, for a question that asks in other words. Added to the words
 * search only, never to the embedded question.
 *
 * <ul>
 *   <li>An attribute ({@code attributes.txt}): "Is Dana in a relationship?" finds "Dana got
 *       engaged", "What does she drive?" finds "Dana's car is a Tesla".
 *   <li>The members of a kind, for a question asking for a set of them ({@code kinds.txt}): "What
 *       instruments does Sam play?" finds "I play my violin", "Which cities has Sam visited?" finds
 *       "our trip to Boston". People name the member, not the kind.
 * </ul>
 */
public final class AttributeCues {

    static final List<CueFamily> ATTRIBUTES = CueFamily.load("attributes.txt");
    static final List<CueFamily> KINDS = CueFamily.load("kinds.txt");

    private AttributeCues() {}

    /** Words to add to the question's words search: none when it names no attribute or kind. */
    public static List<String> of(String question) {
        Set<String> words = new LinkedHashSet<>(Text.words(question));
        Set<String> out = new LinkedHashSet<>();
        CueFamily.addCues(ATTRIBUTES, words, out);
        // Only for a set: added to a question about one thing of a kind, the members outweigh
        // the question's own words.
        if (QuestionShape.asksForSet(question)) {
            CueFamily.addCues(KINDS, words, out);
        }
        return List.copyOf(out);
    }

    /** The question's keywords with the cue words after them. */
    public static String keywords(String question) {
        List<String> cues = of(question);
        String keywords = Text.keywords(question);
        return cues.isEmpty() ? keywords : keywords + " " + String.join(" ", cues);
    }
}
