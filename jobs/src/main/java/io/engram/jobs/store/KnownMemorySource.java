package io.engram.jobs.store;

import io.engram.memory.Memory;
import io.engram.memory.Scope;
import java.io.Serializable;
import java.util.List;
import java.util.function.Function;

/** Where the dedup operator finds a user's memories when it holds no state for them. */
public interface KnownMemorySource extends Serializable {

    /** Opened once per subtask: the look-up of a user's most recent current memories. */
    Function<Scope, List<Memory>> open();
}
