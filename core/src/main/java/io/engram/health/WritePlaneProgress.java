package io.engram.health;

import java.time.Duration;
import java.time.Instant;

/**
 * Whether the write plane keeps up, from what it has committed of the turns topic: the extraction
 * job commits its consumer offsets when a checkpoint completes, so offsets that stop moving while
 * turns wait mean a job that is down, restarting in a loop or failing its checkpoints — whatever
 * the cause, turns are not becoming memories. Fed one observation at a time; no I/O.
 */
public final class WritePlaneProgress {

    /** What the observations say. */
    public enum State {
        /** Nothing waits: every turn sent is committed. */
        CAUGHT_UP,
        /** Turns wait, and the committed offsets moved within the stall limit. */
        CATCHING_UP,
        /** Turns wait, and the committed offsets have not moved for the stall limit or longer. */
        STALLED,
        /** The offsets could not be read. */
        UNKNOWN;

        /** The wire name. */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One report: the state, the turns not yet committed ({@code -1} unknown), and the seconds
     * since the committed offsets last moved or nothing waited.
     */
    public record Report(State state, long lag, long secondsSinceProgress, String error) {}

    private final Duration stallAfter;
    private long lastCommitted = -1;
    private Instant lastProgress;
    private Report last = new Report(State.UNKNOWN, -1, 0, "not read yet");

    public WritePlaneProgress(Duration stallAfter) {
        this.stallAfter = stallAfter;
    }

    /**
     * The stall limit for a job that checkpoints every {@code checkpointInterval}: three missed
     * checkpoints, and at least ten seconds.
     */
    public static Duration stallLimit(Duration checkpointInterval) {
        Duration three = checkpointInterval.multipliedBy(3);
        return three.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : three;
    }

    /**
     * An observation at {@code now}: the committed offsets and the end offsets of the topic, each
     * summed over its partitions.
     */
    public synchronized Report observe(Instant now, long committed, long end) {
        long lag = Math.max(0, end - committed);
        if (lastProgress == null || lag == 0 || committed > lastCommitted) {
            lastProgress = now;
        }
        lastCommitted = Math.max(lastCommitted, committed);
        long since = Math.max(0, Duration.between(lastProgress, now).toSeconds());
        State state =
                lag == 0
                        ? State.CAUGHT_UP
                        : Duration.between(lastProgress, now).compareTo(stallAfter) >= 0
                                ? State.STALLED
                                : State.CATCHING_UP;
        last = new Report(state, lag, since, null);
        return last;
    }

    /** The offsets could not be read at {@code now}; the last progress is kept. */
    public synchronized Report unreadable(Instant now, String error) {
        long since = lastProgress == null ? 0 : Duration.between(lastProgress, now).toSeconds();
        last = new Report(State.UNKNOWN, -1, since, error);
        return last;
    }

    /** The last report. */
    public synchronized Report last() {
        return last;
    }
}
