package io.engram.store;

import io.engram.extraction.Excerpts;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.FactShape;
import io.engram.memory.Memory;
import io.engram.memory.MemoryType;

/**
 * How good a memory is as a memory, from 0 to 1, computed from its words when it is written (the
 * {@code quality_score} recall weighs): a clean statement about a named person scores high, a
 * conversation excerpt by how much it says (content words, values, how much of it is questions and
 * chit-chat), a session summary in between. Documented in docs/architecture.md.
 */
public final class MemoryQuality {

    /** A number, an amount or a date word: the excerpt tells a value. */
    private static final java.util.regex.Pattern VALUE =
            java.util.regex.Pattern.compile(
                    "\\d|[$€£]|(?i)\\b(?:yesterday|tomorrow|january|february|march|april|june|july|august|september|october|november|december)\\b");

    private MemoryQuality() {}

    public static double of(Memory m) {
        if (Excerpts.isExcerpt(m.tags())) {
            return excerpt(m.content());
        }
        if (m.source().equals("consolidation")) {
            return 0.7;
        }
        if (m.type() == MemoryType.EPISODIC && m.content().startsWith("Conversation of ")) {
            return 0.6;
        }
        boolean wellFormed = FactShape.problem(m.content(), null).isEmpty();
        if (FactKey.of(m.content()).isPresent() && wellFormed) {
            return 0.95;
        }
        if (m.source().equals("api")) {
            return wellFormed ? 0.85 : 0.7;
        }
        return wellFormed ? 0.85 : 0.4;
    }

    /**
     * An excerpt: how much its lines say (longer words), less the share of lines that only ask or
     * acknowledge. A character scan: this runs for every excerpt the job writes.
     */
    static double excerpt(String content) {
        String[] lines = content.split("\n");
        int empty = 0;
        int words = 0;
        for (String line : lines) {
            int colon = line.indexOf(": ");
            String said = (colon >= 0 ? line.substring(colon + 2) : line).strip();
            int saidWords = 0;
            for (String w : said.split("\\s+")) {
                if (w.length() > 3) {
                    saidWords++;
                }
            }
            if (saidWords < 3 || said.endsWith("?")) {
                empty++;
            }
            words += saidWords;
        }
        double score = 0.3 + 0.1 * Math.min(4, words / 5.0);
        if (VALUE.matcher(content).find()) {
            score += 0.1;
        }
        score -= 0.15 * empty / lines.length;
        return Math.round(Math.max(0.1, Math.min(0.8, score)) * 100) / 100.0;
    }
}
