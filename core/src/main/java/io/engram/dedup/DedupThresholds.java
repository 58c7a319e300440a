package io.engram.dedup;

/**
 * Similarity thresholds of the dedup decision.
 *
 * @param update above this, the candidate restates an existing memory (UPDATE)
 * @param related from this to {@code update}, a related but distinct fact (CREATE)
 * @param supersedeMin the least similarity at which a changed value is checked for (SUPERSEDE);
 *     lower than {@code related} because "make that $15,000" restated in full often differs in
 *     wording
 */
public record DedupThresholds(double update, double related, double supersedeMin) {

    public static final DedupThresholds DEFAULT = new DedupThresholds(0.9, 0.7, 0.5);

    public DedupThresholds {
        if (!(0 <= supersedeMin && supersedeMin <= related && related <= update && update <= 1)) {
            throw new IllegalArgumentException(
                    "dedup thresholds must satisfy 0 <= supersede_min <= related <= update <= 1, got "
                            + supersedeMin
                            + ", "
                            + related
                            + ", "
                            + update);
        }
    }
}
