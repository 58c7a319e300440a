package io.engram.ranking;

import java.time.Duration;
import java.time.Instant;

/** Normalisation of the raw signals to [0, 1]. */
public final class Signals {

    private static final double LN2 = Math.log(2);

    private Signals() {}

    /** 1 now, 0.5 after one half-life, towards 0 after; future times count as now. */
    public static double halfLife(Instant then, Instant now, Duration halfLife) {
        long ageMs = Math.max(0, now.toEpochMilli() - then.toEpochMilli());
        return Math.exp(-LN2 * ageMs / (double) halfLife.toMillis());
    }

    /** log-scaled recall count, 1 at {@code saturation} recalls and beyond. */
    public static double usage(long count, int saturation) {
        if (count <= 0) {
            return 0;
        }
        return Math.min(1, Math.log1p(count) / Math.log1p(saturation));
    }

    public static double clamp01(double v) {
        return v < 0 ? 0 : v > 1 ? 1 : v;
    }
}
