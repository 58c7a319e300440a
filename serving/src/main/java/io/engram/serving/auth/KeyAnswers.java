package io.engram.serving.auth;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last lookup answer of each key hash, bounded. Keys that exist and keys that do not are kept
 * apart: a flood of made-up keys fills and clears only the second, so it never takes the answers of
 * real keys (and their fallback while the database is down) with it. Real keys over their bound
 * lose the least recently looked-up tenth.
 */
final class KeyAnswers {

    /** A lookup's answer: the principal, or null for an unknown or revoked key. */
    record Answer(Principal principal, long lookedUpAt) {}

    private final int maxKnown;
    private final int maxUnknown;
    private final Map<String, Answer> known = new ConcurrentHashMap<>();
    private final Map<String, Answer> unknown = new ConcurrentHashMap<>();

    KeyAnswers(int maxKnown, int maxUnknown) {
        this.maxKnown = maxKnown;
        this.maxUnknown = maxUnknown;
    }

    Answer get(String hash) {
        Answer a = known.get(hash);
        return a != null ? a : unknown.get(hash);
    }

    void remember(String hash, Answer answer) {
        if (answer.principal() == null) {
            known.remove(hash);
            if (unknown.size() >= maxUnknown) {
                unknown.clear();
            }
            unknown.put(hash, answer);
        } else {
            unknown.remove(hash);
            if (known.size() >= maxKnown && !known.containsKey(hash)) {
                dropOldestKnown();
            }
            known.put(hash, answer);
        }
    }

    /** Drops the tenth of the real keys' answers that were looked up longest ago. */
    private synchronized void dropOldestKnown() {
        long[] times = known.values().stream().mapToLong(Answer::lookedUpAt).toArray();
        if (times.length < maxKnown) {
            return;
        }
        Arrays.sort(times);
        long cutoff = times[Math.max(0, times.length / 10 - 1)];
        known.values().removeIf(a -> a.lookedUpAt() <= cutoff);
    }

    void clear() {
        known.clear();
        unknown.clear();
    }

    int size() {
        return known.size() + unknown.size();
    }
}
