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
        /** Choosing the retrieval strategy (heuristic or LLM). */
        ROUTE,
        /** Auxiliary questions (heuristic or LLM). */
        EXPAND,
        /** Query embedding (waiting for and running the model). */
        EMBED,
        /** The multi-search to OpenSearch. */
        SEARCH,
        /** Reading the candidates from PostgreSQL (or the index when it is down). */
        HYDRATE,
        /** The later hops of a chain: judging, planning, embedding, searching, hydrating. */
        HOPS,
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

    /**
     * Runs one stage of a recall and records its time, from now until its future completes, in the
     * timer and in {@code call} (nanoseconds, by {@link Stage#ordinal()}).
     */
    public <T> Future<T> timed(Stage stage, long[] call, Supplier<Future<T>> work) {
        long start = System.nanoTime();
        Timer timer = timers.get(stage);
        return work.get()
                .onComplete(
                        ar -> {
                            long nanos = System.nanoTime() - start;
                            timer.record(nanos, TimeUnit.NANOSECONDS);
                            call[stage.ordinal()] = nanos;
                        });
    }

    /** A call's stage times before any stage ran: every one absent. */
    public static long[] newCall() {
        long[] call = new long[Stage.values().length];
        java.util.Arrays.fill(call, -1);
        return call;
    }

    /**
     * The W3C {@code Server-Timing} header value of one recall: each stage that ran and the total,
     * in milliseconds ({@code cache;dur=0.8, embed;dur=2.1, …, total;dur=7.3}). The cache lookup
     * and the query embedding run at the same time, so the stages may add up to more than the
     * total.
     */
    public static String serverTiming(long[] call, long totalNanos) {
        StringBuilder h = new StringBuilder();
        for (Stage s : Stage.values()) {
            if (call[s.ordinal()] >= 0) {
                appendDuration(h, s.label(), call[s.ordinal()]);
            }
        }
        appendDuration(h, "total", totalNanos);
        return h.toString();
    }

    private static void appendDuration(StringBuilder h, String name, long nanos) {
        if (h.length() > 0) {
            h.append(", ");
        }
        long micros = nanos / 1000;
        h.append(name).append(";dur=").append(micros / 1000).append('.');
        long frac = micros % 1000;
        h.append(frac < 10 ? "00" : frac < 100 ? "0" : "").append(frac);
    }
}
