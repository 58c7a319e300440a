package io.engram.jobs.extraction;

import io.engram.extraction.ExtractiveSummarizer;
import io.engram.extraction.FactExtractor;
import io.engram.extraction.HeuristicExtractor;
import io.engram.extraction.LlmExtractor;
import io.engram.extraction.LlmSummarizer;
import io.engram.extraction.SessionSummarizer;
import io.engram.llm.ChatCompletionClient;
import io.engram.llm.LlmSettings;
import java.time.Duration;
import java.util.Optional;

/**
 * The extractor and summariser the settings ask for: LLM when an endpoint is set, else heuristic.
 */
public final class Extractors {

    final FactExtractor extractor;
    final SessionSummarizer summarizer;

    /** Given ones (tests). */
    public Extractors(FactExtractor extractor, SessionSummarizer summarizer) {
        this.extractor = extractor;
        this.summarizer = summarizer;
    }

    public Extractors(ExtractionSettings s) {
        HeuristicExtractor heuristic = new HeuristicExtractor();
        ExtractiveSummarizer extractive = new ExtractiveSummarizer(heuristic, 5);
        if (s.llmEnabled()) {
            ChatCompletionClient client =
                    new ChatCompletionClient(
                            new LlmSettings(
                                    s.llmUrl(),
                                    s.llmModel(),
                                    Optional.ofNullable(s.llmApiKey()).filter(k -> !k.isEmpty()),
                                    Duration.ofMillis(s.llmTimeoutMs()),
                                    s.llmMaxRetries(),
                                    s.llmMaxTokens()));
            extractor = new LlmExtractor(client);
            summarizer = new LlmSummarizer(client, extractive);
        } else {
            extractor = heuristic;
            summarizer = extractive;
        }
    }
}
