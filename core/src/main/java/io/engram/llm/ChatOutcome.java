package io.engram.llm;

/** The result of a chat completion: the text and its token counts, or why there is none. */
public sealed interface ChatOutcome {

    record Completed(String content, int promptTokens, int completionTokens)
            implements ChatOutcome {}

    record Failed(FailureKind kind, String reason) implements ChatOutcome {}
}
