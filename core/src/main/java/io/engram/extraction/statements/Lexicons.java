package io.engram.extraction.statements;

import io.engram.text.WordLists;
import java.util.Map;
import java.util.Set;

/** Word lists the statement patterns check their parts against, read from {@code lexicons.txt}. */
final class Lexicons {

    private Lexicons() {}

    private static final Map<String, Set<String>> LISTS =
            WordLists.sections(Lexicons.class, "lexicons.txt");

    static Set<String> list(String name) {
        Set<String> words = LISTS.get(name);
        if (words == null) {
            throw new IllegalStateException("lexicons.txt has no [" + name + "]");
        }
        return words;
    }

    /** Things of "my X is Y" that are moods, moments or manners of speaking, not attributes. */
    static final Set<String> NOT_ATTRIBUTES = list("not_attributes");

    /** Values of "my X is Y" that judge rather than tell. */
    static final Set<String> JUDGEMENTS = list("judgements");

    /** Words that cannot be the whole object of a statement. */
    static final Set<String> EMPTY_OBJECTS = list("empty_objects");

    /**
     * Roles a person holds beside an occupation, never instead of one: "Dana is a mother" does not
     * end "Dana is a teacher".
     */
    static final Set<String> SIDE_ROLES = list("side_roles");

    /** Occupations: one ends another ("I am a nurse now" after "I am a teacher"). */
    static final Set<String> OCCUPATIONS = list("occupations");

    /** Every role "I am a …" reads: an occupation or a role beside one. */
    static final Set<String> ROLES = union(OCCUPATIONS, SIDE_ROLES);

    /** A trade by its ending: "hygienist", "technician", "radiographer", "locksmith". */
    private static final java.util.regex.Pattern TRADE =
            java.util.regex.Pattern.compile("[a-z]{3,}(?:ist|ician|ologist|grapher|smith)");

    /** Words with a trade's ending that name no trade ("optimist", "playlist"). */
    private static final Set<String> NOT_TRADES = list("not_trades");

    /** An occupation: listed, or named by a trade's ending. */
    static boolean occupation(String word) {
        return OCCUPATIONS.contains(word)
                || TRADE.matcher(word).matches() && !NOT_TRADES.contains(word);
    }

    /** A role "I am a …" reads: an occupation or a role beside one. */
    static boolean role(String word) {
        return ROLES.contains(word) || occupation(word);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** People and animals a person has. */
    static final Set<String> RELATIONS = list("relations");

    /** Whether {@code word} (lower case) is someone in the speaker's life: a relation or a role. */
    static boolean someone(String word) {
        return RELATIONS.contains(word) || SINGLE_ROLES.contains(word);
    }

    /** Lasting health conditions a person has. */
    static final Set<String> CONDITIONS = list("conditions");

    /** People someone has one of at a time, in a role (a boss, a dentist, a partner). */
    static final Set<String> SINGLE_ROLES = list("single_roles");

    /** Things a person owns that stay with them. */
    static final Set<String> BELONGINGS = list("belongings");

    /** Past-tense verbs of things that happen to or are done by a person on a day. */
    static final Set<String> EVENT_VERBS = list("event_verbs");

    /**
     * What "had a …" must name to tell an event ("had a picnic", not "had a similar experience").
     */
    static final Set<String> HAD_EVENTS = list("had_events");

    /** Words that say nothing particular as the whole of what someone likes or wants. */
    static final Set<String> VAGUE = list("vague");

    /** Verbs of an ongoing activity ("I'm learning the piano"). */
    static final Set<String> ACTIVITIES = list("activities");

    /** Lower-case words where a name would stand that name nothing ("i live in fear"). */
    static final Set<String> NOT_NAMES = list("not_names");

    /** Sports teams a fan has one of. */
    static final Set<String> TEAMS = list("teams");

    /** First names and pets' names chat types in lower case after a relation. */
    static final Set<String> FIRST_NAMES = list("first_names");

    /** Verbs of liking, with their third-person form. */
    static final java.util.Map<String, String> LIKING =
            java.util.Map.ofEntries(
                    java.util.Map.entry("love", "loves"),
                    java.util.Map.entry("like", "likes"),
                    java.util.Map.entry("enjoy", "enjoys"),
                    java.util.Map.entry("adore", "adores"),
                    java.util.Map.entry("hate", "hates"),
                    java.util.Map.entry("dislike", "dislikes"),
                    java.util.Map.entry("prefer", "prefers"),
                    java.util.Map.entry("cannot stand", "cannot stand"),
                    java.util.Map.entry("collect", "collects"),
                    java.util.Map.entry("play", "plays"),
                    java.util.Map.entry("practice", "practices"),
                    java.util.Map.entry("practise", "practises"),
                    java.util.Map.entry("speak", "speaks"),
                    java.util.Map.entry("volunteer", "volunteers"),
                    java.util.Map.entry("teach", "teaches"),
                    java.util.Map.entry("study", "studies"),
                    java.util.Map.entry("own", "owns"),
                    java.util.Map.entry("run", "runs"));
}
