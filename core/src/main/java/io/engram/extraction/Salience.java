package io.engram.extraction;

import io.engram.text.ChitChat;
import io.engram.text.Text;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How much a turn says about its speaker, from 0 to 1, without reading it as a statement: first
 * person or names, values (money above all), preferences, plans, people, length, less for hedges.
 * The importance of the excerpt of that turn: what a person told about themselves ranks above what
 * only keeps the conversation going, whether or not a fact could be written from it.
 */
public final class Salience {

    private static final Pattern HEDGE =
            Pattern.compile("(?i)\\b(maybe|perhaps|i think|i guess|probably|not sure|might)\\b");

    // Lighter than Values.find, which is written to tell values apart rather than to notice them.
    private static final Pattern MONEY =
            Pattern.compile(
                    "[$€£¥]\\s?\\d|(?i)\\b\\d[\\d,.]*\\s?(?:k|dollars|bucks|euros?|pounds)\\b");
    private static final Pattern NUMBER_OR_TIME =
            Pattern.compile(
                    "\\d|(?i)\\b(?:yesterday|today|tomorrow|tonight|last|next|ago|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december|weekend)\\b");

    /** A capitalised word inside the sentence (not its first word, not "I"). */
    private static final Pattern NAME = Pattern.compile("(?<=[\\p{L},;] )[A-Z][a-z]{2,}");

    private Salience() {}

    /** The most any statement sentence of {@code content} says (questions and chit-chat: 0). */
    public static double of(String content) {
        double best = 0;
        for (String sentence : Text.sentences(content)) {
            if (sentence.strip().endsWith("?") || ChitChat.matches(sentence)) {
                continue;
            }
            best = Math.max(best, sentence(sentence));
        }
        return best;
    }

    static double sentence(String s) {
        List<String> words = Text.words(s);
        Set<String> content = Text.contentWords(s);
        double score = 0.25;
        if (PronounResolver.hasFirstPerson(s) || NAME.matcher(s).find()) {
            score += 0.15;
        }
        if (MONEY.matcher(s).find()) {
            score += 0.2;
        } else if (NUMBER_OR_TIME.matcher(s).find()) {
            score += 0.15;
        }
        if (words.stream().anyMatch(Lexicon.PREFERENCE::contains)) {
            score += 0.15;
        }
        if (content.stream().anyMatch(Lexicon.PLAN::contains)) {
            score += 0.1;
        }
        if (content.stream().anyMatch(Lexicon.SOCIAL::contains)) {
            score += 0.1;
        }
        if (content.size() >= 6) {
            score += 0.1;
        } else if (content.size() <= 2) {
            score -= 0.1;
        }
        if (HEDGE.matcher(s).find()) {
            score -= 0.05;
        }
        return Math.max(0, Math.min(1, Math.round(score * 100) / 100.0));
    }
}
