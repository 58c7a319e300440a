package io.engram.client.model;

import java.util.List;

/** A page of a user's memories, newest first, and the cursor of the next (null: the last). */
public record MemoryPage(List<Memory> memories, String nextCursor) {}
