package io.engram.events;

import java.time.Duration;
import java.time.Instant;

/**
 * The times Engram takes from clients: from 1970 to a day ahead of the receiving clock. Anything
 * outside is a client's mistake (or a probe), and far outside overflows the epoch milliseconds that
 * event time, indexes and PostgreSQL work in.
 */
public final class TimeBounds {

    public static final Instant EARLIEST = Instant.EPOCH;
    public static final Duration MAX_AHEAD = Duration.ofDays(1);

    private TimeBounds() {}

    /** Why {@code t} is refused at {@code now}, or null when it is taken. */
    public static String defect(Instant t, Instant now) {
        if (t.isBefore(EARLIEST) || t.isAfter(now.plus(MAX_AHEAD))) {
            return "must be from " + EARLIEST + " to one day after the current time";
        }
        return null;
    }
}
