package io.engram.extraction;

import io.engram.events.Role;
import io.engram.memory.MemoryType;
import io.engram.text.ChitChat;
import io.engram.text.Text;
import io.engram.text.Values;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds facts without a model: every informative sentence a person says, rewritten in the speaker's
 * name, with elliptical follow-ups ("make that $15,000", "June, probably") completed from the
 * statement or question they answer. Greetings, acknowledgements and questions yield nothing;
 * assistant, system and tool turns only provide context.
 */
public final class HeuristicExtractor implements FactExtractor {

    /** Tunables: the importance a sentence needs to be kept, and the longest fact kept. */
    public record Settings(double minImportance, int maxFactChars) {
        public static final Settings DEFAULT = new Settings(0.35, 1000);
    }

    private static final Pattern HEDGE =
            Pattern.compile("(?i)\\b(maybe|perhaps|i think|i guess|probably|not sure|might)\\b");

    private final Settings settings;

    public HeuristicExtractor() {
        this(Settings.DEFAULT);
    }

    public HeuristicExtractor(Settings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "heuristic";
    }

    /** A statement seen in the window, kept to complete elliptical follow-ups. */
    private record Antecedent(String content, String turnId, List<Values.Value> values) {}

    /** A question asked in the turn just before, answerable by the next speaker. */
    private record Question(String speaker, String text, String turnId) {}

    private final class Pass {
        final List<Antecedent> antecedents = new ArrayList<>();
        final List<CandidateFact> facts = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        Question pendingQuestion;
        String lastHumanSpeaker;

        void turn(ConversationTurn turn, boolean emit) {
            if (turn.role() == Role.SYSTEM || turn.role() == Role.TOOL) {
                return;
            }
            String speaker = turn.speakerName();
            Question answering =
                    pendingQuestion != null && !pendingQuestion.speaker().equals(speaker)
                            ? pendingQuestion
                            : null;
            Question asked = null;
            String listener =
                    turn.role() == Role.USER
                                    && lastHumanSpeaker != null
                                    && !lastHumanSpeaker.equals(speaker)
                            ? lastHumanSpeaker
                            : null;
            for (String sentence : Text.sentences(turn.content())) {
                if (ChitChat.matches(sentence)) {
                    continue;
                }
                if (sentence.endsWith("?")) {
                    // "How can I help?" asks nothing an answer could complete.
                    if (Text.contentWords(sentence).size() >= 2) {
                        asked = new Question(speaker, sentence, turn.turnId());
                    }
                    continue;
                }
                if (turn.role() != Role.USER) {
                    continue;
                }
                sentence(turn, speaker, listener, sentence, answering, emit);
            }
            pendingQuestion = asked;
            if (turn.role() == Role.USER) {
                lastHumanSpeaker = speaker;
            }
        }

        void sentence(
                ConversationTurn turn,
                String speaker,
                String listener,
                String sentence,
                Question answering,
                boolean emit) {
            Set<String> content = Text.contentWords(sentence);
            List<String> sources = new ArrayList<>();
            String resolved = PronounResolver.resolve(sentence, speaker, listener);
            boolean elliptical = content.size() <= 2;
            List<Values.Value> values = elliptical ? Values.find(sentence) : List.of();
            if (elliptical && !values.isEmpty()) {
                Antecedent antecedent = antecedentFor(values.get(0).kind());
                if (antecedent != null) {
                    resolved = substitute(antecedent, values.get(0));
                    sources.add(antecedent.turnId());
                } else if (answering != null) {
                    resolved = answered(speaker, answering, resolved);
                    sources.add(answering.turnId());
                }
            } else if (answering != null
                    && content.size() <= 6
                    && !PronounResolver.hasFirstPerson(sentence)) {
                // A short answer without its own subject ("Charlotte's Web, for sure.") needs the
                // question; "My budget is $10,000" stands alone.
                resolved = answered(speaker, answering, resolved);
                sources.add(answering.turnId());
            } else if (content.isEmpty()) {
                return;
            }
            sources.add(turn.turnId());

            List<String> words = Text.words(resolved);
            Set<String> resolvedContent = Text.contentWords(resolved);
            List<Values.Value> resolvedValues = Values.find(resolved);
            double importance = importance(sentence, words, resolvedContent, resolvedValues);
            antecedents.add(new Antecedent(resolved, turn.turnId(), resolvedValues));
            if (!emit || importance < settings.minImportance()) {
                return;
            }
            boolean hasDate = resolvedValues.stream().anyMatch(v -> v.kind() == Values.Kind.DATE);
            MemoryType type = Lexicon.classify(sentence, words, hasDate);
            String fact = truncate(resolved);
            if (seen.add(Text.normalizeForHash(fact))) {
                facts.add(
                        new CandidateFact(
                                type,
                                fact,
                                importance,
                                Lexicon.tags(resolved, resolvedContent),
                                sources.stream().distinct().toList(),
                                turn.ts()));
            }
        }

        Antecedent antecedentFor(Values.Kind kind) {
            for (int i = antecedents.size() - 1; i >= 0; i--) {
                Antecedent a = antecedents.get(i);
                if (a.values().stream().anyMatch(v -> v.kind() == kind)) {
                    return a;
                }
            }
            return null;
        }
    }

    @Override
    public ExtractionResult extract(ExtractionWindow window) {
        Pass pass = new Pass();
        for (ConversationTurn turn : window.context()) {
            pass.turn(turn, false);
        }
        for (ConversationTurn turn : window.turns()) {
            pass.turn(turn, true);
        }
        return ExtractionResult.Facts.of(pass.facts);
    }

    /** The antecedent with its (last) value of the new value's kind replaced by the new value. */
    private static String substitute(Antecedent antecedent, Values.Value replacement) {
        Values.Value old = null;
        for (Values.Value v : antecedent.values()) {
            if (v.kind() == replacement.kind()) {
                old = v;
            }
        }
        String c = antecedent.content();
        return c.substring(0, old.start()) + replacement.text() + c.substring(old.end());
    }

    /** The answer with its question, whose "you" is the one answering. */
    private static String answered(String speaker, Question question, String answer) {
        String asked = PronounResolver.resolve(question.text(), question.speaker(), speaker);
        return speaker + ", asked \"" + asked + "\", said: " + answer;
    }

    private static double importance(
            String original, List<String> words, Set<String> content, List<Values.Value> values) {
        double score = 0.25;
        if (PronounResolver.hasFirstPerson(original)
                || values.stream().anyMatch(v -> v.kind() == Values.Kind.NAME)) {
            score += 0.15;
        }
        if (values.stream().anyMatch(v -> v.kind() == Values.Kind.MONEY)) {
            score += 0.2;
        } else if (values.stream().anyMatch(v -> v.kind() != Values.Kind.NAME)) {
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
        if (HEDGE.matcher(original).find()) {
            score -= 0.05;
        }
        return Math.max(0, Math.min(1, Math.round(score * 100) / 100.0));
    }

    private String truncate(String text) {
        String t = text.strip();
        if (t.length() <= settings.maxFactChars()) {
            return t;
        }
        return t.substring(0, settings.maxFactChars() - 1) + "…";
    }
}
