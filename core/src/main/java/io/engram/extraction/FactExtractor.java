package io.engram.extraction;

import java.util.concurrent.CompletableFuture;

/** Finds the facts worth remembering in a window of turns. Implementations are thread-safe. */
public interface FactExtractor {

    ExtractionResult extract(ExtractionWindow window);

    /**
     * Non-blocking form, for callers on an event loop or in async I/O; never completes
     * exceptionally.
     */
    default CompletableFuture<ExtractionResult> extractAsync(ExtractionWindow window) {
        return CompletableFuture.completedFuture(extract(window));
    }

    /** A short name for metrics and logs ("heuristic", "llm"). */
    String name();
}
