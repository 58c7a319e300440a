package io.engram.extraction.statements;

import static io.engram.extraction.statements.Phrases.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/** Statements of what someone did or means to do: events and plans, with their times. */
final class EventReaders {

    private EventReaders() {}

    static Optional<Read> plan(Renderer r, String vp, Instant said, boolean wants) {
        String v = vp.strip();
        if (v.matches(
                        "(?i)^(need|needing|have to|miss|see|seeing|find out|finding out|figure|figuring|know|knowing|hear|hearing|keep|keeping|help|helping|make it|making it|be|being|pass it|do it|do that|try it|give it)\\b.*")
                || v.matches("(?i).*\\b(it|that|this|them|those|these|something)\\b.*")
                || vague(v)) {
            return Optional.empty();
        }
        if (v.matches("(?i)^[a-z]+ing\\b.*")) {
            String gerund = v;
            return withTime(r, gerund, said)
                    .filter(t -> contentWords(t.text()) >= 2)
                    .map(
                            t ->
                                    new Read(
                                            "plan",
                                            MemoryType.SEMANTIC,
                                            r.subject() + " is planning on " + t.text(),
                                            t.at(),
                                            0.6));
        }
        if ((v.matches("^(?:[Tt]he|[Aa]n?|[A-Z]) .*") || v.matches("^[A-Z].*"))
                && !v.matches("^(?i)(a|an) (bit|lot|little).*")) {
            v = "go to " + v;
        }
        return withTime(r, v, said)
                .filter(t -> contentWords(t.text()) >= 2)
                .filter(
                        t ->
                                !t.text()
                                        .matches(
                                                "(?i)^(be|do|see|try|say|tell|get|make|take|go) (it|that|this|you|them|so|fine|ok|okay|there|back|home)\\b.*"))
                .map(
                        t ->
                                new Read(
                                        "plan",
                                        MemoryType.SEMANTIC,
                                        r.subject()
                                                + (wants ? " wants to " : " plans to ")
                                                + t.text(),
                                        t.at(),
                                        0.6));
    }

    private static final java.util.regex.Pattern ARTICLE =
            java.util.regex.Pattern.compile("(?i)^(?:a|an|the|some)\\s+(?=\\S)");

    /**
     * "raised a ton", "learned a lot": an amount where the thing done should be named; "read a few
     * of them": a pointer.
     */
    private static final java.util.regex.Pattern QUANTITY_OR_POINTER =
            java.util.regex.Pattern.compile("^(?:a|an) (?:ton|lot|bit|few|couple)\\b");

    /** What one takes on an ordinary day: a ride, a wash, a picture. */
    private static final java.util.regex.Pattern ONE_DAYS_TAKING =
            java.util.regex.Pattern.compile(
                    "^(?:the|a|an) (?:bus|train|tube|subway|metro|tram|ferry|cab|taxi|uber|lyft|car|shower|bath|walk|stroll|picture|photo|pic|selfie|shot|call|seat|elevator|lift|stairs)\\b");

    /** "got a raise to celebrate": an infinitive with nothing after it tells no purpose. */
    private static final java.util.regex.Pattern BARE_PURPOSE =
            java.util.regex.Pattern.compile(
                    "(?i)\\s+to\\s+(?:celebrate|relax|unwind|chill|destress|de-stress|recharge|cope|help|start|try)[.!]*$");

    private static final java.util.regex.Pattern SENTENCE_END =
            java.util.regex.Pattern.compile("[.!?]+\\s+");

    /** "adopted a third", "got another": a count with nothing counted. */
    private static final java.util.regex.Pattern ONLY_A_COUNT =
            java.util.regex.Pattern.compile(
                    "(?i)^(?:a|an|the|my|our)?\\s*(?:second|third|fourth|fifth|another|new|one|two|three)[.!]*$");

    private static final java.util.regex.Pattern AHEAD =
            java.util.regex.Pattern.compile("(?i)\\b(?:next|tomorrow|upcoming|coming)\\b");

    private static final java.util.regex.Pattern ENDS_ON_POINTER =
            java.util.regex.Pattern.compile("\\b(?:them|it|that|this|those|these|him)[.!]*$");

    /** Whether "had a …" names something that happened ("a picnic", "an interview"). */
    private static boolean namesAnEvent(String lowerObject) {
        String[] words = lowerObject.split("[^\\p{L}-]+");
        for (int i = 1; i < Math.min(words.length, 3); i++) {
            if (Lexicons.HAD_EVENTS.contains(words[i])) {
                return true;
            }
        }
        return false;
    }

    static Optional<Read> event(Renderer r, String verb, String rest, Instant said) {
        if (!Lexicons.EVENT_VERBS.contains(verb) || rest == null || rest.isBlank()) {
            return Optional.empty();
        }
        // "WE ADOPTED A SECOND DOG. a little rescue …": one sentence, where the lower case hid the
        // next one's start.
        String tail =
                BARE_PURPOSE
                        .matcher(SENTENCE_END.split(rest.strip(), 2)[0].strip())
                        .replaceFirst("");
        String lower = tail.toLowerCase(Locale.ROOT);
        if (tail.equals(tail.toUpperCase(Locale.ROOT))) {
            tail = lower; // "ADOPTED A SECOND DOG" is shouted, not named
        }
        if (tail.isEmpty()) {
            return Optional.empty();
        }
        switch (verb) {
            case "got" -> {
                if (!lower.matches(
                                "^(a|an|my|our|the|married|engaged|promoted|divorced|accepted|hired|into)\\b.*")
                        || lower.matches(
                                "^(a|an) (lot|bit|chance|feeling|sense|surge|rush|boost|kick|taste|glimpse|great|good|nice|warm|huge|big)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "had" -> {
                if (!lower.matches("^(a|an|my|our)\\b.*")
                        || lower.matches(
                                "^(a|an) (great|good|wonderful|lovely|fun|nice|amazing|blast|lot|bit|tough|hard|rough|long|busy|crazy|chance|feeling|thought|moment|day|time|weekend|week|night|idea)\\b.*")
                        || lower.matches("^(a|an) .*") && !namesAnEvent(lower)) {
                    return Optional.empty();
                }
            }
            case "went" -> {
                if (!lower.matches(
                                "^(to|on|for|back to|out to|hiking|camping|fishing|skiing|swimming|kayaking|surfing|shopping)\\b.*")
                        || lower.matches(
                                "^(to|on|for) (it|that|this|there|bed|sleep|work|school|the store|the gym)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "made",
                    "took",
                    "saw",
                    "read",
                    "watched",
                    "tried",
                    "spent",
                    "gave",
                    "left",
                    "finally" -> {
                if (!lower.matches("^(a|an|my|our|the|some|[0-9]+|two|three|[A-Z]).*")
                        || lower.matches(
                                "^(a|an|the) (lot|bit|mistake|decision|point|step|break|while|look|moment|second|minute|plunge|leap|risk|deep|breath|nap|rest)\\b.*")
                        || verb.equals("took")
                                && (lower.startsWith("some ")
                                        || ONE_DAYS_TAKING.matcher(lower).find())
                        || verb.equals("left")
                        || verb.equals("finally")) {
                    return Optional.empty();
                }
            }
            default -> {}
        }
        // An article opens an object ("joined a gym", "took the kids to the museum"); what follows
        // it must name something ("made the one", "saw a thing" say nothing).
        String object = ARTICLE.matcher(tail).replaceFirst("");
        if (QUANTITY_OR_POINTER.matcher(lower).find()) {
            return Optional.empty();
        }
        if ((Lexicons.EMPTY_OBJECTS.contains(firstWord(object))
                        && !lower.matches("^(to|on|for|into|up|out|back|at|with|in|off|over)\\b.*"))
                || lower.matches(
                        "^(a|an|the) (chance|opportunity|feeling|sense|courage|strength|time)\\b.*")) {
            return Optional.empty();
        }
        // "went to an event last week": an event that says nothing of what it was.
        String what = phrase(tail, 24).orElse("");
        if (ENDS_ON_POINTER.matcher(what).find() || ONLY_A_COUNT.matcher(what).matches()) {
            return Optional.empty();
        }
        Optional<TimePhrases.Resolved> when = TimePhrases.first(what, said);
        // "toured a school for next year": a time after the words were said is what the deed was
        // for, not when it was done.
        if (when.isPresent()
                && when.get().instant().isAfter(said.plusSeconds(86_400))
                && AHEAD.matcher(what).find()) {
            return Optional.empty();
        }
        String bare = when.map(w -> cutOut(what, w)).orElse(what);
        if (!bare.isBlank() && vague(bare)) {
            return Optional.empty();
        }
        return withTime(r, verb + " " + tail, said)
                .filter(t -> contentWords(t.text()) >= 2)
                .map(
                        t ->
                                new Read(
                                        "event",
                                        MemoryType.EPISODIC,
                                        r.subject() + " " + t.text(),
                                        t.at(),
                                        t.at().equals(said) ? 0.55 : 0.65));
    }

    /** A verb phrase cut to its statement, with its time phrase resolved and put at the end. */
    record Timed(String text, Instant at) {}

    static Optional<Timed> withTime(Renderer r, String phrase, Instant said) {
        Optional<String> cut = phrase(phrase, 24);
        if (cut.isEmpty() || cut.get().matches("(?i).*\\b(you|your|yours|yourself)\\b.*")) {
            return Optional.empty();
        }
        Optional<TimePhrases.Resolved> when = TimePhrases.first(cut.get(), said);
        String p = when.map(w -> cutOut(cut.get(), w)).orElse(cut.get());
        return phrase(r.thirdPerson(p), 14)
                .map(
                        text ->
                                new Timed(
                                        text + when.map(w -> " " + w.text()).orElse(""),
                                        when.map(TimePhrases.Resolved::instant).orElse(said)));
    }
}
