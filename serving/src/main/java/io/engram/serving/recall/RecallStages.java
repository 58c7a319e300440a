package io.engram.serving.recall;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Time spent in each stage of recall, as the Prometheus timer {@code engram_recall_stage_seconds}
 * with a {@code stage} label: where a slow recall spends its time, per dependency.
 */
public final class RecallStages {

    /** The stages of one recall, in the order they run. */
    public enum Stage {
        /** Cache generation and result lookup in Redis. */
        CACHE,
        /** Auxiliary questions (heuristic or LLM). */
        EXPAND,
        /** Query embedding (waiting for and running the model). */
        EMBED,
        /** The {@code _msearch} to OpenSearch. */
        SEARCH,
        /** Reading the candidates from PostgreSQL (or the index when it is down). */
        HYDRATE,
        /** Ranking and building the response. */
        RANK;

        /** The value of the {@code stage} label. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Map<Stage, Timer> timers = new EnumMap<>(Stage.class);

    public RecallStages(MeterRegistry registry) {
        for (Stage s : Stage.values()) {
            timers.put(
                    s,
                    Timer.builder("engram.recall.stage")
                            .description("Time spent in one stage of recall")
                            .tag("stage", s.label())
                            .register(registry));
        }
    }

    /** Runs one stage of a recall and records its time, from now until its future completes. */
    public <T> Future<T> timed(Stage stage, Supplier<Future<T>> work) {
        long start = System.nanoTime();
        Timer timer = timers.get(stage);
        return work.get()
                .onComplete(ar -> timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
    }
}
