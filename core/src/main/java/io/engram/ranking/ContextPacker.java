package io.engram.ranking;

import io.engram.text.Text;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs ranked memories into a token budget for a prompt: greedily, best first, skipping one that
 * does not fit and trying the next, and formats them as a system message.
 */
public final class ContextPacker {

    /** A memory to pack: id, text and the date it became true. */
    public record Item(String id, String content, java.time.Instant validFrom) {}

    /** The block and what went into it. */
    public record PromptBlock(String text, List<String> includedIds, int tokens, int omitted) {}

    static final String HEADER =
            "Relevant memories about the user, most relevant first (date the fact was stated):";

    private ContextPacker() {}

    public static PromptBlock pack(List<Item> ranked, int tokenBudget) {
        StringBuilder text = new StringBuilder(HEADER);
        int used = Text.estimateTokens(HEADER);
        List<String> included = new ArrayList<>();
        int omitted = 0;
        for (Item item : ranked) {
            String line =
                    "\n- "
                            + item.content().strip()
                            + " ("
                            + LocalDate.ofInstant(item.validFrom(), ZoneOffset.UTC)
                            + ")";
            int cost = Text.estimateTokens(line);
            if (used + cost > tokenBudget) {
                omitted++;
                continue;
            }
            text.append(line);
            used += cost;
            included.add(item.id());
        }
        if (included.isEmpty()) {
            return new PromptBlock("", List.of(), 0, omitted);
        }
        return new PromptBlock(text.toString(), List.copyOf(included), used, omitted);
    }
}
