package io.engram.query.agentic;

import io.engram.text.Text;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Routing and chaining from the question's words ({@link QuestionShape}) and the memories found,
 * without a model.
 *
 * <p>A question that joins two subjects or two questions is split. One that asks for a set of
 * things, follows a relation or places its answer relative to another event is chained: after the
 * first search, the names, places, dates and specific words of its best memories that the question
 * does not contain are searched for next to the question's names ("where did she move from?" finds
 * "since I moved from my home country", and "home country" then finds "my home country, Sweden").
 * Anything else is searched once. A chain stops when the best memories contain every topic word of
 * a question that asks for one thing, or when nothing new is left to search for.
 */
public final class HeuristicRetrievalPlanner implements RetrievalPlanner {

    /** The best memories of a hop that the next one follows. */
    static final int FOLLOWED = 2;

    /** New words taken from one memory into the next query. */
    static final int TERMS_PER_QUERY = 6;

    private static final Pattern SPEAKER =
            Pattern.compile("(?m)^\\s*([\\p{Lu}][\\p{L} .'-]{0,40}):\\s");

    /** A name spoken to, not about ("Hey Mel!", "Thanks, Jon"). */
    private static final Pattern VOCATIVE =
            Pattern.compile(
                    "(?i:\\b(?:hey|hi|hello|thanks|thank you|congrats|congratulations|wow|yeah|oh|"
                            + "dear|bye|sorry|yes|no|okay|ok|great|awesome|cheers))[,!]?\\s+(\\p{Lu}\\p{L}+)\\b");

    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*");

    @Override
    public String name() {
        return "heuristic";
    }

    @Override
    public CompletableFuture<Route> route(String question, RetrievalStrategy requested) {
        return CompletableFuture.completedFuture(routeNow(question, requested));
    }

    public Route routeNow(String question, RetrievalStrategy requested) {
        List<String> parts = QuestionShape.parts(question);
        switch (requested) {
            case DIRECT:
                return new Route(RetrievalStrategy.DIRECT, List.of(question), "requested");
            case SPLIT:
                return parts.isEmpty()
                        ? new Route(
                                RetrievalStrategy.SPLIT, List.of(question), "requested; one part")
                        : new Route(
                                RetrievalStrategy.SPLIT, withWhole(question, parts), "requested");
            case CHAIN:
                return new Route(RetrievalStrategy.CHAIN, List.of(question), "requested");
            default:
                break;
        }
        if (!parts.isEmpty()) {
            return new Route(
                    RetrievalStrategy.SPLIT,
                    withWhole(question, parts),
                    parts.size() + " subjects or questions joined");
        }
        if (QuestionShape.asksForSet(question)) {
            return new Route(RetrievalStrategy.CHAIN, List.of(question), "asks for several things");
        }
        if (QuestionShape.followsRelation(question)) {
            return new Route(RetrievalStrategy.CHAIN, List.of(question), "follows a relation");
        }
        if (QuestionShape.relativeInTime(question)) {
            return new Route(
                    RetrievalStrategy.CHAIN, List.of(question), "relative to another event");
        }
        return new Route(RetrievalStrategy.DIRECT, List.of(question), "one subject, one question");
    }

    /** The whole question first (it still finds what both parts share), then its parts. */
    private static List<String> withWhole(String question, List<String> parts) {
        List<String> out = new ArrayList<>();
        out.add(question);
        parts.stream().limit(MAX_QUERIES_PER_HOP - 1).forEach(out::add);
        return out;
    }

    @Override
    public CompletableFuture<Hop> next(
            String question, List<String> asked, List<Evidence> evidence) {
        return CompletableFuture.completedFuture(nextNow(question, asked, evidence));
    }

    public Hop nextNow(String question, List<String> asked, List<Evidence> evidence) {
        if (evidence.isEmpty()) {
            return new Hop(false, List.of(), "nothing found to follow");
        }
        Set<String> topic = QuestionShape.topic(question);
        boolean set = QuestionShape.asksForSet(question);
        // One memory must hold the whole answer: "husband" in one and "work" in another is the
        // first hop of "where does her husband work?", not its answer.
        if (!set
                && !topic.isEmpty()
                && evidence.stream()
                        .limit(3)
                        .anyMatch(
                                e ->
                                        shared(topic, Text.contentWords(e.content()))
                                                        == topic.size()
                                                && hasAnswerKind(question, e.content()))) {
            return Hop.enough("one of the best memories holds every topic word and an answer");
        }
        List<String> names = QuestionShape.names(question);
        Set<String> known = new HashSet<>(Text.contentWords(question));
        for (String a : asked) {
            known.addAll(Text.contentWords(a));
        }
        Set<String> seenQueries = new HashSet<>();
        asked.forEach(a -> seenQueries.add(a.toLowerCase(Locale.ROOT)));
        List<String> queries = new ArrayList<>();
        for (Evidence e : evidence.subList(0, Math.min(FOLLOWED, evidence.size()))) {
            List<String> terms = newTerms(question, e.content(), known);
            if (terms.isEmpty()) {
                continue;
            }
            String q =
                    String.join(" ", names)
                            + (names.isEmpty() ? "" : " ")
                            + String.join(" ", terms);
            if (seenQueries.add(q.toLowerCase(Locale.ROOT))) {
                queries.add(q);
                // The next memory's query should look elsewhere.
                terms.forEach(t -> known.add(Text.fold(t.toLowerCase(Locale.ROOT))));
            }
        }
        if (queries.isEmpty()) {
            return new Hop(false, List.of(), "nothing new to search for");
        }
        return new Hop(
                false,
                queries.subList(0, Math.min(queries.size(), MAX_QUERIES_PER_HOP)),
                set ? "asks for several things" : "topic words missing");
    }

    /**
     * What a memory says that the question does not: its names, places and dates, then the specific
     * words of its sentence closest to the question.
     */
    static List<String> newTerms(String question, String content, Set<String> known) {
        Set<String> speakers = new HashSet<>();
        Matcher sp = SPEAKER.matcher(content);
        while (sp.find()) {
            for (String w : Text.words(sp.group(1))) {
                speakers.add(w);
            }
        }
        Matcher voc = VOCATIVE.matcher(content);
        while (voc.find()) {
            speakers.add(voc.group(1).toLowerCase(Locale.ROOT));
        }
        Set<String> questionNames = new HashSet<>();
        QuestionShape.names(question).forEach(n -> questionNames.add(n.toLowerCase(Locale.ROOT)));
        LinkedHashSet<String> out = new LinkedHashSet<>();
        String body = SPEAKER.matcher(content).replaceAll("");
        for (String sentence : Text.sentences(body)) {
            Matcher t = TOKEN.matcher(sentence);
            boolean first = true;
            while (t.find()) {
                String w = QuestionShape.stripPossessive(t.group());
                String lower = w.toLowerCase(Locale.ROOT);
                boolean initial = first;
                first = false;
                if (initial || w.isEmpty()) {
                    continue;
                }
                boolean named = Character.isUpperCase(w.charAt(0)) && !"I".equals(w);
                boolean number = Character.isDigit(w.charAt(0));
                boolean month = QuestionShape.MONTHS.contains(lower);
                if ((named || number || month)
                        && !spokenBy(speakers, lower)
                        && !questionNames.contains(lower)
                        && !known.contains(Text.fold(lower))
                        && !Text.STOPWORDS.contains(lower)
                        && !QuestionShape.NOT_NAMES.contains(lower)) {
                    out.add(w);
                }
            }
        }
        Set<String> topic = QuestionShape.topic(question);
        String closest = null;
        int best = 0;
        for (String sentence : Text.sentences(body)) {
            int shared = shared(topic, Text.contentWords(sentence));
            if (shared > best) {
                best = shared;
                closest = sentence;
            }
        }
        if (closest != null) {
            for (String w : aroundTopic(topic, new ArrayList<>(Text.contentWords(closest)))) {
                if (out.size() >= TERMS_PER_QUERY) {
                    break;
                }
                if (w.length() > 2
                        && out.stream().noneMatch(t -> t.equalsIgnoreCase(w))
                        && !known.contains(w)
                        && shared(Set.of(w), known) == 0
                        && !spokenBy(speakers, w)
                        && !questionNames.contains(w)
                        && !QuestionShape.GENERIC.contains(w)
                        && !FILLER.contains(w)) {
                    out.add(w);
                }
            }
        }
        return new ArrayList<>(out).subList(0, Math.min(out.size(), TERMS_PER_QUERY));
    }

    /**
     * A sentence's words from the one after its first topic word onwards, then those before it
     * nearest first: what a sentence says about the topic usually follows it ("moved from my home
     * country").
     */
    static List<String> aroundTopic(Set<String> topic, List<String> words) {
        int at = -1;
        for (int i = 0; i < words.size() && at < 0; i++) {
            if (shared(topic, Set.of(words.get(i))) > 0) {
                at = i;
            }
        }
        List<String> out = new ArrayList<>(words.subList(at + 1, words.size()));
        for (int i = at - 1; i >= 0; i--) {
            out.add(words.get(i));
        }
        return out;
    }

    /** How many topic words a sentence has, "moved" meeting "move" and "paintings" "painted". */
    static int shared(Set<String> topic, Set<String> words) {
        int n = 0;
        for (String t : topic) {
            String a = stem(t);
            for (String w : words) {
                String b = stem(w);
                if (a.length() >= 3 && b.length() >= 3 && (a.startsWith(b) || b.startsWith(a))) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    private static String stem(String word) {
        if (word.length() > 5 && word.endsWith("ing")) {
            return word.substring(0, word.length() - 3);
        }
        if (word.length() > 4 && word.endsWith("ed")) {
            return word.substring(0, word.length() - 2);
        }
        return word;
    }

    private static final Pattern WHEN =
            Pattern.compile(
                    "(?i)\\b(?:\\d|yesterday|today|tomorrow|tonight|ago|last|next|morning|evening|"
                            + "week|month|year|january|february|march|april|may|june|july|august|"
                            + "september|october|november|december|monday|tuesday|wednesday|thursday|"
                            + "friday|saturday|sunday|spring|summer|autumn|fall|winter)");
    private static final Pattern COUNT =
            Pattern.compile(
                    "(?i)\\b(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|once|twice|"
                            + "several|a few|dozen)\\b");

    /**
     * Whether a memory has the kind of thing the question asks for: a name for "where" and "who", a
     * time for "when", a number for "how many"; anything for other questions.
     */
    static boolean hasAnswerKind(String question, String content) {
        String q = question.toLowerCase(Locale.ROOT);
        if (q.contains("how many") || q.contains("how much")) {
            return COUNT.matcher(content).find();
        }
        List<String> words = Text.words(question);
        switch (words.isEmpty() ? "" : words.get(0)) {
            case "when":
                return WHEN.matcher(content).find();
            case "where":
            case "who":
            case "whom":
            case "whose":
                return newTerms(question, content, Set.of()).stream()
                        .anyMatch(t -> Character.isUpperCase(t.charAt(0)));
            default:
                return true;
        }
    }

    /** A speaker's name or the start of one (a nickname: "Mel" for Melanie). */
    private static boolean spokenBy(Set<String> speakers, String word) {
        for (String s : speakers) {
            if (s.startsWith(word) && word.length() >= 3 || s.equals(word)) {
                return true;
            }
        }
        return false;
    }

    /** Chat words that say nothing of what happened. */
    static final Set<String> FILLER =
            Set.of(
                    "yeah",
                    "wow",
                    "awesome",
                    "great",
                    "cool",
                    "nice",
                    "thanks",
                    "thank",
                    "really",
                    "super",
                    "totally",
                    "definitely",
                    "amazing",
                    "glad",
                    "happy",
                    "hope",
                    "sound",
                    "sounds",
                    "good",
                    "love",
                    "lol",
                    "haha",
                    "hey",
                    "oh",
                    "yes",
                    "sure",
                    "right",
                    "pretty",
                    "lot",
                    "lots",
                    "stuff",
                    "thing",
                    "things",
                    "just",
                    "gonna",
                    "wanna",
                    "kinda",
                    "ya",
                    "yep",
                    "nope",
                    "okay",
                    "ok",
                    "wonderful",
                    "fantastic",
                    "incredible",
                    "feel",
                    "felt",
                    "know",
                    "think",
                    "mean",
                    "say",
                    "said",
                    "get",
                    "got",
                    "make");
}
