package io.engram.client.model;

import java.time.Instant;

/** One conversation turn; {@code role} is user, assistant, system or tool. */
public record Turn(String turnId, String role, String speaker, String content, Instant ts) {

    public static Turn user(String turnId, String content) {
        return new Turn(turnId, "user", null, content, null);
    }

    public static Turn assistant(String turnId, String content) {
        return new Turn(turnId, "assistant", null, content, null);
    }

    /** The same turn, said by a named speaker. */
    public Turn by(String speakerName) {
        return new Turn(turnId, role, speakerName, content, ts);
    }

    /** The same turn, said at {@code time}. */
    public Turn at(Instant time) {
        return new Turn(turnId, role, speaker, content, time);
    }
}
