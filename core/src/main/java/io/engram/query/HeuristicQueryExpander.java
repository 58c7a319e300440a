package io.engram.query;

import io.engram.text.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Auxiliary questions without a model: a question about choosing something for a person asks about
 * that person's interests and preferences; a request for advice asks about the user's own
 * preferences and constraints on the topic.
 */
public final class HeuristicQueryExpander implements QueryExpander {

    private static final Pattern PERSON =
            Pattern.compile(
                    "(?i)\\b(?:my|our|for)\\s+(wife|husband|partner|girlfriend|boyfriend|son|daughter|kids?|children|"
                            + "mom|mother|dad|father|sister|brother|friend|boss|colleague|grandma|grandpa|"
                            + "grandmother|grandfather|niece|nephew|aunt|uncle|cousin|fiancee?|baby|family|team)\\b");
    private static final Set<String> CHOOSING =
            Set.of(
                    "gift",
                    "present",
                    "buy",
                    "get",
                    "surprise",
                    "birthday",
                    "anniversary",
                    "recommend",
                    "suggest",
                    "idea",
                    "ideas",
                    "plan",
                    "book",
                    "cook",
                    "make",
                    "choose",
                    "pick",
                    "dinner",
                    "restaurant",
                    "trip",
                    "weekend",
                    "date");
    private static final Set<String> ADVICE =
            Set.of(
                    "recommend",
                    "suggest",
                    "should",
                    "best",
                    "good",
                    "ideas",
                    "idea",
                    "plan",
                    "help",
                    "choose",
                    "pick",
                    "which",
                    "where",
                    "what");

    @Override
    public String name() {
        return "heuristic";
    }

    @Override
    public CompletableFuture<List<String>> expand(String query) {
        return CompletableFuture.completedFuture(expandNow(query));
    }

    public List<String> expandNow(String query) {
        List<String> out = new ArrayList<>();
        List<String> words = Text.words(query);
        Matcher person = PERSON.matcher(query);
        boolean choosing = words.stream().anyMatch(CHOOSING::contains);
        if (person.find()) {
            String who = person.group(1).toLowerCase(Locale.ROOT);
            out.add(who + "'s hobbies and interests");
            out.add(choosing ? who + "'s likes, favorite things and wishes" : "about " + who);
        } else if (words.stream().anyMatch(ADVICE::contains)) {
            List<String> topic = new ArrayList<>(Text.contentWords(query));
            topic.removeAll(ADVICE);
            topic.removeAll(CHOOSING);
            if (!topic.isEmpty()) {
                String t = String.join(" ", topic);
                out.add("preferences about " + t);
                out.add("plans and constraints for " + t);
            }
        }
        return out.stream().limit(MAX_AUXILIARY).toList();
    }
}
