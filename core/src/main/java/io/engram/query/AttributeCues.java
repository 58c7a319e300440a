package io.engram.query;

import io.engram.query.agentic.QuestionShape;
import io.engram.text.Text;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words a stored value of an attribute is said with, for a question that names the attribute in
 * other words: "Is Dana in a relationship?" finds "Dana got engaged", "What does she drive?" finds
 * "Dana's car is a Tesla". Added to the words search only, never to the embedded question.
 */
public final class AttributeCues {

    /** Words of a question that name an attribute, and the words its values are stored with. */
    private record Family(Set<String> asked, List<String> stored) {}

    private static final List<Family> FAMILIES =
            List.of(
                    new Family(
                            Set.of(
                                    "relationship",
                                    "dating",
                                    "married",
                                    "single",
                                    "spouse",
                                    "engaged",
                                    "boyfriend",
                                    "girlfriend",
                                    "husband",
                                    "wife",
                                    "fiance",
                                    "fiancee"),
                            List.of("married", "engaged", "single", "divorced", "partner")),
                    new Family(
                            Set.of("job", "employer", "employed", "company", "workplace"),
                            List.of("works", "work", "job")),
                    new Family(
                            Set.of("live", "lives", "living", "reside", "address", "city"),
                            List.of("lives", "moved")),
                    new Family(
                            Set.of("car", "drive", "drives", "vehicle"), List.of("car", "drives")),
                    new Family(
                            Set.of("diet", "vegetarian", "vegan", "meat"),
                            List.of("vegetarian", "vegan", "pescatarian")),
                    new Family(
                            Set.of("boss", "manager", "supervisor"),
                            List.of("boss", "manager", "report")),
                    new Family(
                            Set.of("hometown", "grow", "grew", "born", "raised"),
                            List.of("grew", "born", "from")));

    private AttributeCues() {}

    /** Words to add to the question's words search: none when it names no attribute. */
    public static List<String> of(String question) {
        Set<String> words = new LinkedHashSet<>(Text.words(question));
        Set<String> out = new LinkedHashSet<>();
        for (Family f : FAMILIES) {
            if (f.asked().stream().anyMatch(words::contains)) {
                f.stored().stream().filter(w -> !words.contains(w)).forEach(out::add);
            }
        }
        if (QuestionShape.asksForSet(question)) {
            out.addAll(KindCues.of(words));
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
