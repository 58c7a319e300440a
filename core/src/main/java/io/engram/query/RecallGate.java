package io.engram.query;

import io.engram.text.ChitChat;
import java.util.regex.Pattern;

/**
 * Decides whether a message needs memory at all: greetings, thanks and other short chit-chat do
 * not, unless the caller forces it or the message is about the user ("my flight?").
 */
public final class RecallGate {

    /** The decision, with the reason reported to the caller when memory is skipped. */
    public record Verdict(boolean search, String reason) {}

    static final int MIN_CHARS = 10;

    private static final Pattern PERSONAL =
            Pattern.compile("(?i)\\b(i|me|my|mine|we|us|our|i'm|i've|i'd|i'll)\\b");

    private RecallGate() {}

    public static Verdict decide(String message, boolean force) {
        String m = message == null ? "" : message.strip();
        if (force) {
            return new Verdict(true, "forced by the caller");
        }
        if (ChitChat.matches(m)) {
            return new Verdict(false, "greeting or acknowledgement");
        }
        if (m.length() < MIN_CHARS) {
            if (PERSONAL.matcher(m).find()) {
                return new Verdict(true, "short but about the user");
            }
            return new Verdict(false, "message shorter than " + MIN_CHARS + " characters");
        }
        return new Verdict(true, "informative message");
    }
}
