package io.engram.extraction;

import java.util.List;

/**
 * The turns to extract facts from, with the turns just before them for context (the overlap of
 * consecutive windows: they help resolve "make that $15,000" but yield no facts of their own).
 */
public record ExtractionWindow(
        String sessionId,
        List<ConversationTurn> context,
        List<ConversationTurn> turns,
        boolean sessionEnd) {

    public ExtractionWindow {
        context = List.copyOf(context);
        turns = List.copyOf(turns);
    }
}
