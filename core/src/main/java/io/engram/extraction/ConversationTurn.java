package io.engram.extraction;

import io.engram.events.Role;
import java.time.Instant;
import java.util.Optional;

/** A turn as extraction sees it: who said what, when. */
public record ConversationTurn(
        String turnId, Role role, Optional<String> speaker, String content, Instant ts) {

    /** The name facts use for the speaker: the display name, else the role. */
    public String speakerName() {
        return speaker.filter(s -> !s.isBlank())
                .orElse(
                        role == Role.USER
                                ? "User"
                                : role == Role.ASSISTANT ? "Assistant" : role.wireName());
    }
}
