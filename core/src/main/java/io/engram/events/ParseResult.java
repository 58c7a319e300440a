package io.engram.events;

/** The outcome of parsing one record: an event, or the reason it was rejected. */
public sealed interface ParseResult {

    record Accepted(ChatEvent event) implements ParseResult {}

    record Rejected(String reason) implements ParseResult {}
}
