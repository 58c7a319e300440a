package io.engram.client.model;

import java.util.List;

/** What a restore brought back, and the consolidated memory it removed (or null). */
public record Restored(List<String> restored, String removed, String requestId) {}
