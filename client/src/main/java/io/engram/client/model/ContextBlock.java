package io.engram.client.model;

import java.util.List;

/**
 * The memories to put in a prompt: a system message ({@code null} when nothing was worth adding),
 * the memories it holds, its tokens, how many did not fit.
 */
public record ContextBlock(
        Message message, List<String> memoryIds, int tokens, int omitted, List<String> degraded) {

    /** A chat message. */
    public record Message(String role, String content) {}

    /** The message's text, or the empty string. */
    public String text() {
        return message == null || message.content() == null ? "" : message.content();
    }
}
