package io.engram.ranking;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The weighted ranking: each signal normalised to [0, 1], weighted, summed and divided by the sum
 * of weights. Drops candidates below the similarity threshold or the importance floor, and keeps
 * the best {@code limit} without sorting the rest. A memory that a newer fact contradicts (a stale
 * statement) scores {@link #STALE_FACTOR} of what it would, and is never ranked above the fact that
 * contradicts it.
 */
public final class Ranker {

    /** What a stale statement's score is multiplied by. */
    public static final double STALE_FACTOR = 0.5;

    private Ranker() {}

    public static List<Ranked> rank(
            List<RankCandidate> candidates, Instant now, RankingSettings settings, int limit) {
        int n = candidates.size();
        RankingWeights w = settings.weights();
        double norm = w.sum();
        ScoreBreakdown[] signals = new ScoreBreakdown[n];
        double[] scores = new double[n];
        int[] kept = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            ScoreBreakdown s = signals(candidates.get(i), now, settings);
            if (s.semantic() < settings.similarityThreshold()
                    || s.importance() < settings.importanceFloor()) {
                continue;
            }
            signals[i] = s;
            scores[i] =
                    (w.semantic() * s.semantic()
                                    + w.recency() * s.recency()
                                    + w.importance() * s.importance()
                                    + w.usage() * s.usage()
                                    + w.quality() * s.quality()
                                    + w.consistency() * s.consistency()
                                    + w.decay() * s.decay())
                            / norm;
            if (candidates.get(i).stale()) {
                scores[i] *= STALE_FACTOR;
            }
            kept[count++] = i;
        }
        int k = Math.min(limit, count);
        // Partial selection: k is a handful of memories, n may be a thousand.
        for (int a = 0; a < k; a++) {
            int best = a;
            for (int b = a + 1; b < count; b++) {
                if (better(scores, kept[b], kept[best], candidates)) {
                    best = b;
                }
            }
            int tmp = kept[a];
            kept[a] = kept[best];
            kept[best] = tmp;
        }
        List<Ranked> out = new ArrayList<>(k);
        for (int a = 0; a < k; a++) {
            out.add(new Ranked(candidates.get(kept[a]), scores[kept[a]], signals[kept[a]]));
        }
        return belowWhatContradictsThem(out);
    }

    /** Moves each stale statement just below the fact that contradicts it, if that ranks lower. */
    static List<Ranked> belowWhatContradictsThem(List<Ranked> ranked) {
        List<Ranked> out = new ArrayList<>(ranked);
        for (int pass = 0; pass < out.size(); pass++) {
            boolean moved = false;
            for (int i = 0; i < out.size(); i++) {
                String by = out.get(i).candidate().contradictedBy();
                if (by == null) {
                    continue;
                }
                for (int j = i + 1; j < out.size(); j++) {
                    if (out.get(j).candidate().id().equals(by)) {
                        out.add(j, out.remove(i));
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    break;
                }
            }
            if (!moved) {
                break;
            }
        }
        return out;
    }

    /** The normalised signals of one candidate. */
    public static ScoreBreakdown signals(RankCandidate c, Instant now, RankingSettings settings) {
        return new ScoreBreakdown(
                Signals.clamp01(c.similarity()),
                Signals.halfLife(c.factTime(), now, settings.recencyHalfLife()),
                Signals.clamp01(c.importance()),
                Signals.usage(c.usageCount(), settings.usageSaturation()),
                Signals.clamp01(c.quality()),
                Signals.clamp01(c.consistency()),
                Signals.clamp01(c.decay()));
    }

    /** Higher score first; ties by id so the order is stable. */
    private static boolean better(double[] scores, int i, int j, List<RankCandidate> c) {
        if (scores[i] != scores[j]) {
            return scores[i] > scores[j];
        }
        return c.get(i).id().compareTo(c.get(j).id()) < 0;
    }
}
