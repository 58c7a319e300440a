package io.engram.extraction.statements;

import java.util.Locale;
import java.util.Set;

/**
 * An attribute phrase as {@link FactKey} compares it: its head noun, words before it, possessive
 * owners, words after ("budget for the Hawaii trip": head "budget", tail "hawaii trip").
 */
record AttributePhrase(String head, Set<String> modifiers, Set<String> owners, Set<String> tail) {

    /** Attribute words that say nothing about which attribute it is. */
    static final Set<String> NOISE = Set.of("new", "current", "now", "actual", "the");

    /**
     * Qualifiers that tell one of several of a kind apart: "work email" is not the email, though
     * "trip budget" is the budget.
     */
    static final Set<String> DISTINCT =
            Set.of(
                    "work",
                    "personal",
                    "home",
                    "school",
                    "office",
                    "business",
                    "backup",
                    "second",
                    "secondary",
                    "alternate",
                    "other",
                    "spare",
                    "old",
                    "previous",
                    "former",
                    "private",
                    "weekend",
                    "summer",
                    "winter");

    /** Attribute words said in two ways, read as one. */
    static final java.util.Map<String, String> SYNONYMS =
            java.util.Map.ofEntries(
                    java.util.Map.entry("favourite", "favorite"),
                    java.util.Map.entry("fave", "favorite"),
                    java.util.Map.entry("goto", "favorite"),
                    java.util.Map.entry("pay", "salary"),
                    java.util.Map.entry("income", "salary"),
                    java.util.Map.entry("film", "movie"),
                    java.util.Map.entry("manager", "boss"),
                    java.util.Map.entry("cellphone", "phone"),
                    java.util.Map.entry("mobile", "phone"),
                    java.util.Map.entry("gp", "doctor"),
                    java.util.Map.entry("physician", "doctor"),
                    java.util.Map.entry("handle", "username"));

    static final Set<String> PREPOSITIONS =
            Set.of("for", "of", "at", "in", "on", "with", "to", "from");

    /**
     * Whether the two name the same thing with more or fewer qualifiers ("trip budget" and "budget
     * for the trip"), not one of several ("email" and "work email").
     */
    boolean sameQualifiersAs(AttributePhrase other) {
        Set<String> qa = qualifiers();
        Set<String> qb = other.qualifiers();
        if (!(qa.containsAll(qb) || qb.containsAll(qa))) {
            return false;
        }
        for (String q : DISTINCT) {
            if (qa.contains(q) != qb.contains(q)) {
                return false;
            }
        }
        return true;
    }

    int size() {
        return 1 + modifiers.size() + owners.size() + tail.size();
    }

    Set<String> qualifiers() {
        Set<String> all = new java.util.HashSet<>(modifiers);
        all.addAll(tail);
        return all;
    }

    static AttributePhrase of(String phrase) {
        String[] words = phrase.toLowerCase(Locale.ROOT).split("\\s+");
        java.util.List<String> core = new java.util.ArrayList<>();
        Set<String> tail = new java.util.LinkedHashSet<>();
        boolean after = false;
        for (String w : words) {
            String word = w.replaceAll("[^a-z0-9'’]", "").replace('’', '\'');
            if (word.isEmpty() || NOISE.contains(word)) {
                continue;
            }
            word = SYNONYMS.getOrDefault(word, word);
            if (!after && PREPOSITIONS.contains(word)) {
                after = true;
                continue;
            }
            (after ? tail : core).add(word);
        }
        if (core.isEmpty()) {
            return new AttributePhrase("", Set.of(), Set.of(), tail);
        }
        String head = core.get(core.size() - 1);
        Set<String> modifiers = new java.util.LinkedHashSet<>();
        Set<String> owners = new java.util.LinkedHashSet<>();
        for (String w : core.subList(0, core.size() - 1)) {
            (w.endsWith("'s") ? owners : modifiers).add(w);
        }
        return new AttributePhrase(head, modifiers, owners, tail);
    }

    /**
     * Words a statement of {@code attribute} uses, as a regular expression for PostgreSQL's {@code
     * ~*} (words of the attribute, or of living, working, marriage for those keys).
     */
    static String cueWords(String attribute) {
        return switch (attribute) {
            case "residence" -> "\\m(live|lives|living|moved|move|moving|home|address|based)\\M";
            case "workplace", "occupation" -> "\\m(work|works|working|job|employer|company)\\M";
            case "relationship status" ->
                    "\\m(single|married|engaged|divorced|widowed|separated|husband|wife|spouse|partner|boyfriend|girlfriend|fiancee?|dating|relationship)\\M";
            case "diet" -> "\\m(vegetarian|vegan|pescatarian|diet)\\M";
            case "car" -> "\\m(car|drives|drive)\\M";
            default -> {
                AttributePhrase a = of(attribute);
                // "number of cats" is said "has three cats"; "daughter's age" "daughter is 5".
                String word =
                        attribute.startsWith("number of ")
                                ? attribute.substring("number of ".length())
                                : a.owners().isEmpty() ? a.head() : a.owners().iterator().next();
                word = word.replaceAll("'s$", "").replaceAll("[^a-z0-9]", "");
                yield word.isEmpty() ? "\\m\\M" : "\\m" + word + "\\M";
            }
        };
    }
}
