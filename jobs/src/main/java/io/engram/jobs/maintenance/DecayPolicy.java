package io.engram.jobs.maintenance;

import io.engram.memory.Tier;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

/**
 * Decay and tiers as functions of whole days without recall, so a second run on the same day
 * computes the same values and changes nothing.
 */
public record DecayPolicy(
        int halfLifeDays, int warmAfterDays, int coldAfterDays, double holdImportance)
        implements Serializable {

    public DecayPolicy {
        if (warmAfterDays >= coldAfterDays) {
            throw new IllegalArgumentException(
                    "maintenance.warm_after_days ("
                            + warmAfterDays
                            + ") must be below maintenance.cold_after_days ("
                            + coldAfterDays
                            + ")");
        }
    }

    /** Whole days from the last recall (or creation) to {@code asOf}; never negative. */
    public static long idleDays(Instant lastUse, Instant asOf) {
        return Math.max(0, Duration.between(lastUse, asOf).toDays());
    }

    /**
     * 1 when just used, halving every half-life without recall; important memories decay up to
     * twice as slowly. Rounded to three decimals.
     */
    public double decay(long idleDays, double importance) {
        double halfLife = halfLifeDays * (1 + Math.max(0, Math.min(1, importance)));
        return Math.round(Math.pow(0.5, idleDays / halfLife) * 1000) / 1000.0;
    }

    /** Hot while recently used, warm after a while, cold after long; important ones stay warm. */
    public Tier tier(long idleDays, double importance) {
        if (idleDays < warmAfterDays) {
            return Tier.HOT;
        }
        if (idleDays < coldAfterDays || importance >= holdImportance) {
            return Tier.WARM;
        }
        return Tier.COLD;
    }
}
