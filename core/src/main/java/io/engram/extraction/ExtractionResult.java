package io.engram.extraction;

import io.engram.llm.FailureKind;
import java.util.List;

/** What an extractor returns: facts, or a failure of a known kind (never guessed facts). */
public sealed interface ExtractionResult {

    /** Facts found, with the LLM tokens spent on them (0 for the heuristic extractor). */
    record Facts(List<CandidateFact> facts, int promptTokens, int completionTokens)
            implements ExtractionResult {
        public Facts {
            facts = List.copyOf(facts);
        }

        public static Facts of(List<CandidateFact> facts) {
            return new Facts(facts, 0, 0);
        }
    }

    /** The extractor could not produce facts; the window should be recorded as failed. */
    record Failed(FailureKind kind, String reason) implements ExtractionResult {}
}
