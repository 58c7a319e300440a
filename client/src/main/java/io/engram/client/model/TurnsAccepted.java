package io.engram.client.model;

/** How many turns were accepted for extraction. */
public record TurnsAccepted(int accepted, String sessionId, String requestId) {}
