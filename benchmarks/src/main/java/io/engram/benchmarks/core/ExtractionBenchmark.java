package io.engram.benchmarks.core;

import io.engram.events.Role;
import io.engram.extraction.ConversationTurn;
import io.engram.extraction.ExtractionResult;
import io.engram.extraction.ExtractionWindow;
import io.engram.extraction.HeuristicExtractor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/** Heuristic extraction over windows of 10 conversational turns; reported per turn. */
public class ExtractionBenchmark extends BenchmarkDefaults {

    static final int TURNS = 10;

    private static final String[] LINES = {
        "Hey Mel! Good to see you! How have you been?",
        "I went to a LGBTQ support group yesterday and it was so powerful.",
        "Wow, that's cool, Caroline! What happened that was so awesome?",
        "The transgender stories were so inspiring! I was so happy and thankful for all the support.",
        "That sounds great. By the way, my budget for the Hawaii trip is $10,000.",
        "Actually, make that $15,000 because flights got pricier.",
        "My sister Kate is coming with us, she's a nurse in Denver.",
        "What's your favorite book?",
        "Charlotte's Web, for sure.",
        "Thanks, see you soon!"
    };

    private ExtractionWindow window;
    private final HeuristicExtractor extractor = new HeuristicExtractor();

    @Setup
    public void setUp() {
        List<ConversationTurn> turns = new ArrayList<>();
        Instant ts = Instant.parse("2026-03-15T10:00:00Z");
        for (int i = 0; i < TURNS; i++) {
            turns.add(
                    new ConversationTurn(
                            "t" + i,
                            Role.USER,
                            Optional.of(i % 2 == 0 ? "Caroline" : "Melanie"),
                            LINES[i],
                            ts.plusSeconds(i * 30L)));
        }
        window = new ExtractionWindow("s1", List.of(), turns, false);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(TURNS)
    public ExtractionResult heuristicPerTurn() {
        return extractor.extract(window);
    }
}
