package io.engram.client.model;

/** What a store decided: create, update, supersede or noop, and why. */
public record StoreDecision(String id, String decision, String reason, Double similarity) {}
