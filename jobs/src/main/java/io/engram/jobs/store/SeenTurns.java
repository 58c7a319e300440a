package io.engram.jobs.store;

import io.engram.memory.Scope;
import java.io.Serializable;
import java.util.List;

/**
 * Whether a window's turns were all stored before (sent again): the dedup operator drops such a
 * window before deciding anything, so its state never takes a replayed fact for a new one.
 */
public interface SeenTurns extends Serializable {

    Lookup open();

    /** The lookups, on what {@link #open} connected to; closing lets that go. */
    interface Lookup extends AutoCloseable {
        boolean allSeen(Scope scope, String session, List<String> turnIds) throws Exception;

        @Override
        default void close() throws Exception {}
    }

    /** Nothing is ever seen (tests that do not replay). */
    SeenTurns NEVER = () -> (scope, session, turnIds) -> false;
}
