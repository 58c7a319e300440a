package io.engram.client.model;

/** What forgetting a user deleted. */
public record Forgotten(long memoriesDeleted, long indexDocumentsDeleted) {}
