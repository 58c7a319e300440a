package io.engram.jobs.extraction;

import io.engram.extraction.CandidateFact;
import io.engram.extraction.ConversationTurn;
import io.engram.extraction.Excerpts;
import io.engram.extraction.ExtractionResult;
import io.engram.extraction.ExtractionWindow;
import io.engram.extraction.ExtractiveSummarizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Extracts the facts of a window through Flink async I/O (the LLM call, when configured, never
 * blocks the task thread), and the episodic summary at session end. A failed extraction is passed
 * on as a failed batch, to be recorded in the dead-letter topic; it never fails the job.
 */
public class ExtractFunction extends RichAsyncFunction<WindowBatch, FactBatch> {

    private static final long serialVersionUID = 1L;

    /** The longest turn kept whole in an excerpt. */
    static final int EXCERPT_LINE_CHARS = 1000;

    private final ExtractionSettings settings;
    private final ExtractionJob.ExtractorSource sources;
    private transient Extractors extractors;

    /** The facts of recent turns of this subtask's sessions, bounded (oldest dropped). */
    private transient java.util.Map<String, List<CandidateFact>> factsByTurn;

    /** How many turns' facts are kept for summaries. */
    static final int TURNS_KEPT = 50_000;

    private transient Counter factsExtracted;
    private transient Counter excerptsMade;
    private transient Counter failures;
    private transient Counter llmCalls;
    private transient Counter llmTokens;

    public ExtractFunction(ExtractionSettings settings, ExtractionJob.ExtractorSource sources) {
        this.settings = settings;
        this.sources = sources;
    }

    @Override
    public void open(OpenContext context) {
        extractors = sources.open(settings);
        factsByTurn =
                java.util.Collections.synchronizedMap(
                        new java.util.LinkedHashMap<>(1024, 0.75f, false) {
                            @Override
                            protected boolean removeEldestEntry(
                                    java.util.Map.Entry<String, List<CandidateFact>> eldest) {
                                return size() > TURNS_KEPT;
                            }
                        });
        var group = getRuntimeContext().getMetricGroup();
        factsExtracted = group.counter("factsExtracted");
        excerptsMade = group.counter("excerpts");
        failures = group.counter("extractionFailures");
        llmCalls = group.counter("llmCalls");
        llmTokens = group.counter("llmTokens");
    }

    @Override
    public void asyncInvoke(WindowBatch window, ResultFuture<FactBatch> result) {
        try {
            extract(window)
                    .whenComplete(
                            (batch, error) ->
                                    result.complete(
                                            List.of(
                                                    error != null
                                                            ? failed(window, error)
                                                            : batch)));
        } catch (RuntimeException e) {
            // Thrown before any future: the window cannot be read or the extractor refused it.
            result.complete(List.of(failed(window, e)));
        }
    }

    private CompletableFuture<FactBatch> extract(WindowBatch window) {
        ExtractionWindow w = window.toWindow();
        CompletableFuture<ExtractionResult> facts =
                w.turns().isEmpty() || !settings.facts()
                        ? CompletableFuture.completedFuture(ExtractionResult.Facts.of(List.of()))
                        : extractors.extractor.extractAsync(w);
        return facts.thenCompose(
                r -> summary(window, w, r).thenApply(s -> toBatch(window, w, r, s)));
    }

    /**
     * At session end, the session's summary. The extractive one is written from the facts the
     * session's windows gave (kept per turn by this subtask), unless some turn's are not known
     * (after a restart): then the session is read again.
     */
    private CompletableFuture<Optional<CandidateFact>> summary(
            WindowBatch window, ExtractionWindow w, ExtractionResult result) {
        if (result instanceof ExtractionResult.Facts f) {
            remember(window, w, f.facts());
        }
        if (!window.sessionEnd || !settings.facts()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        List<ConversationTurn> turns = WindowBatch.turns(window.sessionTurns);
        if (extractors.summarizer instanceof ExtractiveSummarizer extractive) {
            List<CandidateFact> known = new ArrayList<>();
            boolean complete = true;
            for (ConversationTurn t : turns) {
                List<CandidateFact> facts = factsByTurn.remove(turnKey(window, t.turnId()));
                if (facts == null) {
                    complete = false;
                } else {
                    known.addAll(facts);
                }
            }
            if (complete) {
                return CompletableFuture.completedFuture(extractive.fromFacts(turns, known));
            }
        }
        return extractors.summarizer.summarize(window.sessionId, turns);
    }

    /** Keeps the facts of each turn of a window, for the session's summary. */
    private void remember(WindowBatch window, ExtractionWindow w, List<CandidateFact> facts) {
        for (ConversationTurn t : w.turns()) {
            List<CandidateFact> of = new ArrayList<>();
            for (CandidateFact f : facts) {
                List<String> sources = f.sourceTurnIds();
                if (!sources.isEmpty() && sources.get(sources.size() - 1).equals(t.turnId())) {
                    of.add(f);
                }
            }
            factsByTurn.put(turnKey(window, t.turnId()), of);
        }
    }

    private static String turnKey(WindowBatch window, String turnId) {
        return window.tenantId
                + '\u0001'
                + window.projectId
                + '\u0001'
                + window.environment
                + '\u0001'
                + window.userId
                + '\u0001'
                + window.sessionId
                + '\u0001'
                + turnId;
    }

    private FactBatch failed(WindowBatch window, Throwable error) {
        FactBatch failed = FactBatch.forWindow(window);
        failed.failureKind = "INTERNAL";
        Throwable cause =
                error instanceof java.util.concurrent.CompletionException
                                && error.getCause() != null
                        ? error.getCause()
                        : error;
        failed.failureReason = StageLetters.describe(cause);
        failures.inc();
        return failed;
    }

    @Override
    public void timeout(WindowBatch window, ResultFuture<FactBatch> result) {
        FactBatch failed = FactBatch.forWindow(window);
        failed.failureKind = "TIMEOUT";
        failed.failureReason = "extraction did not finish within the async timeout";
        failures.inc();
        result.complete(List.of(failed));
    }

    private FactBatch toBatch(
            WindowBatch window,
            ExtractionWindow w,
            ExtractionResult r,
            Optional<CandidateFact> summary) {
        FactBatch batch = FactBatch.forWindow(window);
        batch.llm = settings.llmEnabled();
        if (settings.llmEnabled() && !w.turns().isEmpty()) {
            llmCalls.inc();
        }
        if (r instanceof ExtractionResult.Failed f) {
            batch.failureKind = f.kind().name();
            batch.failureReason = f.reason();
            failures.inc();
            return batch;
        }
        ExtractionResult.Facts ok = (ExtractionResult.Facts) r;
        List<FactRecord> facts = new ArrayList<>();
        ok.facts().forEach(f -> facts.add(FactRecord.of(f)));
        summary.ifPresent(s -> facts.add(FactRecord.of(s)));
        factsExtracted.inc(facts.size());
        List<CandidateFact> excerpts =
                Excerpts.of(w, settings.excerptTurns(), EXCERPT_LINE_CHARS, ok.facts());
        excerpts.forEach(e -> facts.add(FactRecord.of(e)));
        excerptsMade.inc(excerpts.size());
        batch.facts = facts.toArray(new FactRecord[0]);
        batch.promptTokens = ok.promptTokens();
        batch.completionTokens = ok.completionTokens();
        llmTokens.inc(ok.promptTokens() + ok.completionTokens());
        return batch;
    }
}
