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

    static Optional<Read> event(Renderer r, String verb, String rest, Instant said) {
        if (!Lexicons.EVENT_VERBS.contains(verb) || rest == null || rest.isBlank()) {
            return Optional.empty();
        }
        String tail = rest.strip();
        String lower = tail.toLowerCase(Locale.ROOT);
        switch (verb) {
            case "got" -> {
                if (!lower.matches(
                                "^(a|an|my|our|the|married|engaged|promoted|divorced|accepted|hired|into)\\b.*")
                        || lower.matches("^(a|an) (lot|bit|chance|feeling|sense)\\b.*")) {
                    return Optional.empty();
                }
            }
            case "had" -> {
                if (!lower.matches("^(a|an|my|our)\\b.*")
                        || lower.matches(
                                "^(a|an) (great|good|wonderful|lovely|fun|nice|amazing|blast|lot|bit|tough|hard|rough|long|busy|crazy|chance|feeling|thought|moment|day|time|weekend|week|night|idea)\\b.*")) {
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
                                "^(a|an|the) (lot|bit|mistake|decision|point|step|break|while|look|moment|second|minute)\\b.*")
                        || verb.equals("left")
                        || verb.equals("finally")) {
                    return Optional.empty();
                }
            }
            default -> {}
        }
        if ((Lexicons.EMPTY_OBJECTS.contains(firstWord(tail))
                        && !lower.matches("^(to|on|for|into|up|out|back|at|with|in|off|over)\\b.*"))
                || lower.matches(
                        "^(a|an|the) (chance|opportunity|feeling|sense|courage|strength|time)\\b.*")) {
            return Optional.empty();
        }
        // "went to an event last week": an event that says nothing of what it was.
        String what = phrase(tail, 24).orElse("");
        Optional<TimePhrases.Resolved> when = TimePhrases.first(what, said);
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
