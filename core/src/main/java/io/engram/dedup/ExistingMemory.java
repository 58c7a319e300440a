package io.engram.dedup;

import io.engram.memory.MemoryType;
import java.util.UUID;

/** A current memory of the user near a candidate, with its cosine similarity to the candidate. */
public record ExistingMemory(UUID id, MemoryType type, String content, double similarity) {}
