package io.engram.extraction;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Writes the episodic memory of a finished session. Never completes exceptionally. */
public interface SessionSummarizer {

    CompletableFuture<Optional<CandidateFact>> summarize(
            String sessionId, List<ConversationTurn> turns);
}
