package io.engram.extraction;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;

/** A fact worth remembering, before the dedup decision. */
public record CandidateFact(
        MemoryType type,
        String content,
        double importance,
        List<String> tags,
        List<String> sourceTurnIds,
        Instant validFrom) {

    public CandidateFact {
        if (content == null || content.isBlank()) {
            throw new IllegalArgumentException("content must not be blank");
        }
        if (importance < 0 || importance > 1) {
            throw new IllegalArgumentException("importance must be in [0, 1], was " + importance);
        }
        tags = List.copyOf(tags);
        sourceTurnIds = List.copyOf(sourceTurnIds);
    }

    /** The same fact in other words. */
    public CandidateFact withContent(String words) {
        return new CandidateFact(type, words, importance, tags, sourceTurnIds, validFrom);
    }
}
