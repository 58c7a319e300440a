package io.engram.jobs.store;

import io.engram.memory.Scope;
import java.io.Serializable;

/** When a user was last forgotten, per the audit of forgets. */
public interface PastForgets extends Serializable {

    Lookup open();

    /** The lookups, on what {@link #open} connected to; closing lets that go. */
    interface Lookup extends AutoCloseable {
        /** Epoch milliseconds of the user's last forget in the scope's project or all; -1 never. */
        long lastForget(Scope scope) throws Exception;

        @Override
        default void close() throws Exception {}
    }
}
