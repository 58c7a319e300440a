package io.engram.jobs.store;

import io.engram.memory.Scope;
import java.io.Serializable;

/**
 * How many times others (the API, the maintenance jobs) have changed a user's memories: the dedup
 * operator loads a user again when the count moved since it did.
 */
public interface OtherWrites extends Serializable {

    Counts open();

    /** The counts, from what {@link #open} connected to; closing lets that go. */
    interface Counts extends AutoCloseable {
        /** The count of the scope's user; -1 when it cannot be told. */
        long of(Scope scope);

        @Override
        default void close() {}
    }
}
