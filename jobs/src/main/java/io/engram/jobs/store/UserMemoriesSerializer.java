package io.engram.jobs.store;

import io.engram.dedup.UserMemories;
import io.engram.memory.Memory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of a user's known memories in keyed state. With the heap state backend it only
 * runs at checkpoints and restores; the operator works on the object itself.
 */
public final class UserMemoriesSerializer extends TypeSerializerSingleton<UserMemories> {

    private static final long serialVersionUID = 1L;
    public static final UserMemoriesSerializer INSTANCE = new UserMemoriesSerializer();

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public UserMemories createInstance() {
        return new UserMemories(1);
    }

    @Override
    public UserMemories copy(UserMemories from) {
        return UserMemories.of(from.memories(), from.capacity());
    }

    @Override
    public UserMemories copy(UserMemories from, UserMemories reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(UserMemories record, DataOutputView target) throws IOException {
        target.writeByte(MemoryCodec.format());
        target.writeInt(record.capacity());
        List<Memory> memories = record.memories();
        target.writeInt(memories.size());
        for (Memory m : memories) {
            MemoryCodec.writeMemory(target, m);
        }
    }

    @Override
    public UserMemories deserialize(DataInputView source) throws IOException {
        MemoryCodec.checkFormat(source.readByte());
        int capacity = source.readInt();
        int n = source.readInt();
        List<Memory> memories = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            memories.add(MemoryCodec.readMemory(source));
        }
        return UserMemories.of(memories, capacity);
    }

    @Override
    public UserMemories deserialize(UserMemories reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<UserMemories> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot for restoring state written by this serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<UserMemories> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
