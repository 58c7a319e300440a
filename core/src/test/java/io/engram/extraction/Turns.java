package io.engram.extraction;

import io.engram.events.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds conversations for extraction tests. */
final class Turns {

    private final List<ConversationTurn> turns = new ArrayList<>();
    private Instant ts = Instant.parse("2026-03-15T10:00:00Z");

    /** The next turns are said from {@code at} on. */
    Turns at(Instant at) {
        ts = at;
        return this;
    }

    Turns say(String speaker, String content) {
        return add(Role.USER, Optional.of(speaker), content);
    }

    Turns assistant(String content) {
        return add(Role.ASSISTANT, Optional.empty(), content);
    }

    Turns add(Role role, Optional<String> speaker, String content) {
        turns.add(new ConversationTurn("t" + (turns.size() + 1), role, speaker, content, ts));
        ts = ts.plusSeconds(30);
        return this;
    }

    List<ConversationTurn> list() {
        return List.copyOf(turns);
    }

    ExtractionWindow window() {
        return new ExtractionWindow("s1", List.of(), turns, false);
    }
}
