package io.engram.extraction;

import io.engram.memory.MemoryType;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A session summary without a model: the session's most important facts, in the order they were
 * said, under the date and the people who spoke.
 */
public final class ExtractiveSummarizer implements SessionSummarizer {

    /**
     * A summary points into a session; the facts and excerpts it lists are what answers: it ranks
     * below them ({@code importance} at most this).
     */
    static final double SUMMARY_IMPORTANCE = 0.3;

    private final FactExtractor extractor;
    private final int maxFacts;

    public ExtractiveSummarizer(FactExtractor extractor, int maxFacts) {
        this.extractor = extractor;
        this.maxFacts = maxFacts;
    }

    @Override
    public CompletableFuture<Optional<CandidateFact>> summarize(
            String sessionId, List<ConversationTurn> turns) {
        return CompletableFuture.completedFuture(summarizeNow(sessionId, turns));
    }

    public Optional<CandidateFact> summarizeNow(String sessionId, List<ConversationTurn> turns) {
        if (turns.isEmpty()) {
            return Optional.empty();
        }
        ExtractionResult result =
                extractor.extract(new ExtractionWindow(sessionId, List.of(), turns, true));
        if (!(result instanceof ExtractionResult.Facts facts)) {
            return Optional.empty();
        }
        return fromFacts(turns, facts.facts());
    }

    /**
     * The summary of a session whose facts are known already (extracted window by window): the same
     * as {@link #summarizeNow} without extracting the session a second time.
     */
    public Optional<CandidateFact> fromFacts(
            List<ConversationTurn> turns, List<CandidateFact> facts) {
        if (turns.isEmpty() || facts.isEmpty()) {
            return Optional.empty();
        }
        List<CandidateFact> chosen =
                facts.stream()
                        // A hint is no fact until the planner reads it.
                        .filter(f -> !io.engram.extraction.statements.ValueHint.isHint(f.tags()))
                        .sorted(Comparator.comparingDouble(CandidateFact::importance).reversed())
                        .limit(maxFacts)
                        .sorted(Comparator.comparing(CandidateFact::validFrom))
                        .toList();
        if (chosen.isEmpty()) {
            // Only hints: a summary of nothing ("Conversation of Dana on …: .") is no memory.
            return Optional.empty();
        }
        Set<String> speakers = new LinkedHashSet<>();
        for (ConversationTurn t : turns) {
            if (t.role() == io.engram.events.Role.USER) {
                speakers.add(t.speakerName());
            }
        }
        StringBuilder content =
                new StringBuilder("Conversation of ")
                        .append(
                                String.join(
                                        " and ",
                                        speakers.isEmpty() ? Set.of("the user") : speakers))
                        .append(" on ")
                        .append(LocalDate.ofInstant(turns.get(0).ts(), ZoneOffset.UTC))
                        .append(": ");
        Set<String> sources = new LinkedHashSet<>();
        Set<String> tags = new LinkedHashSet<>();
        double importance = 0;
        List<String> parts = new ArrayList<>();
        for (CandidateFact f : chosen) {
            parts.add(f.content().replaceAll("[.!]+$", ""));
            sources.addAll(f.sourceTurnIds());
            tags.addAll(f.tags());
            importance = Math.max(importance, f.importance());
        }
        content.append(String.join("; ", parts)).append('.');
        return Optional.of(
                new CandidateFact(
                        MemoryType.EPISODIC,
                        content.toString(),
                        Math.min(importance, SUMMARY_IMPORTANCE),
                        List.copyOf(tags),
                        List.copyOf(sources),
                        turns.get(0).ts()));
    }
}
