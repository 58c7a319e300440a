package io.engram.extraction;

import io.engram.memory.MemoryType;
import io.engram.text.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Word lists that tell what a sentence is about and what kind of memory it makes. */
final class Lexicon {

    private Lexicon() {}

    static final Set<String> SOCIAL =
            Set.of(
                    "wife",
                    "husband",
                    "son",
                    "daughter",
                    "mom",
                    "mother",
                    "dad",
                    "father",
                    "sister",
                    "brother",
                    "friend",
                    "boss",
                    "colleague",
                    "coworker",
                    "partner",
                    "girlfriend",
                    "boyfriend",
                    "kid",
                    "child",
                    "children",
                    "grandma",
                    "grandpa",
                    "grandmother",
                    "grandfather",
                    "neighbor",
                    "neighbour",
                    "cousin",
                    "aunt",
                    "uncle",
                    "family",
                    "mentor",
                    "fiance",
                    "fiancee",
                    "parent",
                    "sibling",
                    "roommate",
                    "classmate",
                    "teammate",
                    "baby");

    static final Set<String> PREFERENCE =
            Set.of(
                    "like",
                    "likes",
                    "love",
                    "loves",
                    "loved",
                    "enjoy",
                    "enjoys",
                    "prefer",
                    "prefers",
                    "favorite",
                    "favourite",
                    "hate",
                    "hates",
                    "dislike",
                    "dislikes",
                    "allergic",
                    "fan",
                    "passionate",
                    "obsessed",
                    "into");

    static final Set<String> PLAN =
            Set.of(
                    "plan",
                    "plans",
                    "planning",
                    "going",
                    "will",
                    "want",
                    "wants",
                    "hope",
                    "hoping",
                    "intend",
                    "goal",
                    "trip",
                    "budget",
                    "schedule",
                    "scheduled",
                    "booked",
                    "book",
                    "deadline",
                    "next",
                    "tomorrow",
                    "soon",
                    "upcoming",
                    "considering",
                    "thinking");

    static final Set<String> EPISODE =
            Set.of(
                    "yesterday",
                    "ago",
                    "last",
                    "went",
                    "visited",
                    "attended",
                    "met",
                    "saw",
                    "took",
                    "finished",
                    "started",
                    "joined",
                    "bought",
                    "moved",
                    "celebrated",
                    "graduated",
                    "married",
                    "adopted",
                    "ran",
                    "won",
                    "lost",
                    "traveled",
                    "travelled",
                    "returned",
                    "came",
                    "had",
                    "did",
                    "made",
                    "got",
                    "signed",
                    "painted",
                    "wrote",
                    "read",
                    "tried");

    static final Pattern PROCEDURE =
            Pattern.compile(
                    "(?i)^(first|then|next|finally|always|never|make sure|remember to|don't forget|step \\d|"
                            + "to (make|do|fix|set up|install|run|cook|prepare))\\b|\\b(how to|steps?|recipe|instructions?|"
                            + "procedure|routine|the way to)\\b");

    private static final Map<String, Set<String>> TAGS = new LinkedHashMap<>();

    static {
        TAGS.put(
                "travel",
                Set.of(
                        "trip",
                        "travel",
                        "flight",
                        "vacation",
                        "holiday",
                        "hotel",
                        "visit",
                        "tour",
                        "beach",
                        "abroad",
                        "camping",
                        "roadtrip"));
        TAGS.put(
                "money",
                Set.of(
                        "budget",
                        "cost",
                        "price",
                        "salary",
                        "pay",
                        "paid",
                        "money",
                        "afford",
                        "expensive",
                        "cheap",
                        "savings",
                        "loan",
                        "rent",
                        "mortgage"));
        TAGS.put(
                "food",
                Set.of(
                        "food",
                        "eat",
                        "ate",
                        "restaurant",
                        "cook",
                        "cooking",
                        "dinner",
                        "lunch",
                        "breakfast",
                        "recipe",
                        "vegan",
                        "vegetarian",
                        "pizza",
                        "coffee",
                        "tea",
                        "cake",
                        "bake",
                        "baking"));
        TAGS.put(
                "work",
                Set.of(
                        "job",
                        "work",
                        "boss",
                        "office",
                        "career",
                        "company",
                        "promotion",
                        "interview",
                        "colleague",
                        "project",
                        "client",
                        "meeting",
                        "startup"));
        TAGS.put(
                "health",
                Set.of(
                        "doctor",
                        "sick",
                        "health",
                        "gym",
                        "exercise",
                        "diet",
                        "hospital",
                        "allergic",
                        "allergy",
                        "therapy",
                        "injury",
                        "workout",
                        "yoga",
                        "medication"));
        TAGS.put(
                "family",
                Set.of(
                        "wife",
                        "husband",
                        "son",
                        "daughter",
                        "mom",
                        "mother",
                        "dad",
                        "father",
                        "sister",
                        "brother",
                        "kid",
                        "child",
                        "children",
                        "family",
                        "parent",
                        "baby",
                        "grandma",
                        "grandpa"));
        TAGS.put(
                "hobby",
                Set.of(
                        "hobby",
                        "paint",
                        "painting",
                        "music",
                        "guitar",
                        "piano",
                        "book",
                        "novel",
                        "game",
                        "gaming",
                        "sport",
                        "hiking",
                        "hike",
                        "photography",
                        "dance",
                        "dancing",
                        "garden",
                        "gardening",
                        "knitting",
                        "pottery",
                        "art",
                        "concert",
                        "movie",
                        "film",
                        "swimming",
                        "running",
                        "surfing",
                        "camping",
                        "drawing"));
        TAGS.put(
                "education",
                Set.of(
                        "school",
                        "class",
                        "study",
                        "studying",
                        "degree",
                        "university",
                        "college",
                        "course",
                        "exam",
                        "teacher",
                        "student",
                        "graduate",
                        "graduated"));
        TAGS.put("pets", Set.of("dog", "cat", "pet", "puppy", "kitten", "horse"));
        TAGS.put(
                "home",
                Set.of(
                        "house",
                        "apartment",
                        "home",
                        "moved",
                        "move",
                        "live",
                        "lives",
                        "living",
                        "neighborhood",
                        "city",
                        "town"));
    }

    static List<String> tags(String text, Set<String> contentWords) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : TAGS.entrySet()) {
            for (String w : contentWords) {
                if (e.getValue().contains(w)) {
                    out.add(e.getKey());
                    break;
                }
            }
        }
        List<String> words = Text.words(text);
        for (String w : words) {
            if (PREFERENCE.contains(w)) {
                out.add("preference");
                break;
            }
        }
        return out;
    }

    static MemoryType classify(String sentence, List<String> words, boolean hasDate) {
        if (PROCEDURE.matcher(sentence).find()) {
            return MemoryType.PROCEDURAL;
        }
        boolean social = false;
        for (String w : words) {
            if (SOCIAL.contains(Text.fold(w))) {
                social = true;
                break;
            }
        }
        boolean episode = false;
        for (String w : words) {
            if (EPISODE.contains(w)) {
                episode = true;
                break;
            }
        }
        boolean preference = words.stream().anyMatch(PREFERENCE::contains);
        if (episode
                && (hasDate
                        || words.contains("yesterday")
                        || words.contains("ago")
                        || words.contains("last"))) {
            return MemoryType.EPISODIC;
        }
        if (social && !preference) {
            return MemoryType.SOCIAL;
        }
        return MemoryType.SEMANTIC;
    }
}
