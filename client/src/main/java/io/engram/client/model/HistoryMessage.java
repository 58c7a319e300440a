package io.engram.client.model;

/** A message of the current conversation, sent with a search to resolve follow-ups. */
public record HistoryMessage(String role, String content) {}
