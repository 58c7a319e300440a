package io.engram.jobs.store;

import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.store.MemoryStoreWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Binary form of memories and changes, for Flink state and for the stream from the dedup operator
 * to the store sink. Versioned by its first byte.
 */
public final class MemoryCodec {

    private static final byte FORMAT = 1;

    private MemoryCodec() {}

    public static byte[] encodeChanges(List<MemoryChange> changes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024 * changes.size() + 8);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeInt(changes.size());
            for (MemoryChange c : changes) {
                writeChange(out, c);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The changes of one window, with when its newest turn was sent and the window's session and
     * turn ids (for the store sink).
     */
    public static byte[] encodeFromTurns(MemoryStoreWriter.FromTurns batch) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024 * batch.changes().size() + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(batch.sentAt());
            writeOptional(out, batch.sessionId());
            writeStrings(out, batch.turnIds());
            byte[] changes = encodeChanges(batch.changes());
            out.writeInt(changes.length);
            out.write(changes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static MemoryStoreWriter.FromTurns decodeFromTurns(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            long sentAt = in.readLong();
            String session = readOptional(in);
            List<String> turns = readStrings(in);
            byte[] changes = new byte[in.readInt()];
            in.readFully(changes);
            return new MemoryStoreWriter.FromTurns(sentAt, decodeChanges(changes), session, turns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<MemoryChange> decodeChanges(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            checkFormat(in.readByte());
            int n = in.readInt();
            List<MemoryChange> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readChange(in));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void writeChange(DataOutput out, MemoryChange c) throws IOException {
        if (c instanceof MemoryChange.Created) {
            out.writeByte(0);
        } else if (c instanceof MemoryChange.Updated u) {
            out.writeByte(1);
            out.writeUTF(u.previousContent());
        } else if (c instanceof MemoryChange.Superseded s) {
            out.writeByte(2);
            writeMemory(out, s.old());
        } else if (c instanceof MemoryChange.Contradicted x) {
            out.writeByte(4);
            writeUuid(out, x.by());
            out.writeInt(x.byTurns().size());
            for (String t : x.byTurns()) {
                out.writeUTF(t);
            }
            out.writeUTF(x.word());
        } else {
            out.writeByte(3);
        }
        writeMemory(out, c.memory());
        out.writeUTF(c.reason());
        out.writeDouble(c.similarity());
    }

    static MemoryChange readChange(DataInput in) throws IOException {
        byte kind = in.readByte();
        String previous = kind == 1 ? in.readUTF() : null;
        Memory old = kind == 2 ? readMemory(in) : null;
        UUID by = kind == 4 ? readUuid(in) : null;
        List<String> byTurns = new ArrayList<>();
        for (int i = kind == 4 ? in.readInt() : 0; i > 0; i--) {
            byTurns.add(in.readUTF());
        }
        String word = kind == 4 ? in.readUTF() : null;
        Memory memory = readMemory(in);
        String reason = in.readUTF();
        double similarity = in.readDouble();
        return switch (kind) {
            case 0 -> new MemoryChange.Created(memory, reason, similarity);
            case 1 -> new MemoryChange.Updated(memory, previous, reason, similarity);
            case 2 -> new MemoryChange.Superseded(memory, old, reason, similarity);
            case 3 -> new MemoryChange.Reinforced(memory, reason, similarity);
            case 4 -> new MemoryChange.Contradicted(memory, by, byTurns, word, reason, similarity);
            default -> throw new IOException("unknown change kind " + kind);
        };
    }

    public static void writeMemory(DataOutput out, Memory m) throws IOException {
        writeUuid(out, m.id());
        out.writeUTF(m.scope().tenantId());
        out.writeUTF(m.scope().projectId());
        out.writeUTF(m.scope().environment());
        out.writeUTF(m.scope().userId());
        writeOptional(out, m.sessionId().orElse(null));
        out.writeByte(m.type().ordinal());
        writeLong(out, m.content());
        writeStrings(out, m.tags());
        out.writeUTF(m.source());
        writeStrings(out, m.sourceTurnIds());
        out.writeDouble(m.importance());
        out.writeByte(m.tier().ordinal());
        out.writeByte(m.status().ordinal());
        writeInstant(out, m.validFrom());
        out.writeBoolean(m.validTo().isPresent());
        if (m.validTo().isPresent()) {
            writeInstant(out, m.validTo().get());
        }
        out.writeBoolean(m.supersededBy().isPresent());
        if (m.supersededBy().isPresent()) {
            writeUuid(out, m.supersededBy().get());
        }
        out.writeInt(m.version());
        out.writeUTF(m.embeddingVersion());
        out.writeInt(m.vector().length);
        for (float f : m.vector()) {
            out.writeFloat(f);
        }
        writeInstant(out, m.createdAt());
    }

    public static Memory readMemory(DataInput in) throws IOException {
        UUID id = readUuid(in);
        Scope scope = new Scope(in.readUTF(), in.readUTF(), in.readUTF(), in.readUTF());
        Optional<String> session = Optional.ofNullable(readOptional(in));
        MemoryType type = MemoryType.values()[in.readByte()];
        String content = readLong(in);
        List<String> tags = readStrings(in);
        String source = in.readUTF();
        List<String> sources = readStrings(in);
        double importance = in.readDouble();
        Tier tier = Tier.values()[in.readByte()];
        MemoryStatus status = MemoryStatus.values()[in.readByte()];
        Instant validFrom = readInstant(in);
        Optional<Instant> validTo =
                in.readBoolean() ? Optional.of(readInstant(in)) : Optional.empty();
        Optional<UUID> supersededBy =
                in.readBoolean() ? Optional.of(readUuid(in)) : Optional.empty();
        int version = in.readInt();
        String embeddingVersion = in.readUTF();
        float[] vector = new float[in.readInt()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = in.readFloat();
        }
        Instant createdAt = readInstant(in);
        return new Memory(
                id,
                scope,
                session,
                type,
                content,
                tags,
                source,
                sources,
                importance,
                tier,
                status,
                validFrom,
                validTo,
                supersededBy,
                version,
                embeddingVersion,
                vector,
                createdAt);
    }

    static void checkFormat(byte format) throws IOException {
        if (format != FORMAT) {
            throw new IOException("unknown memory codec format " + format);
        }
    }

    static byte format() {
        return FORMAT;
    }

    private static void writeUuid(DataOutput out, UUID id) throws IOException {
        out.writeLong(id.getMostSignificantBits());
        out.writeLong(id.getLeastSignificantBits());
    }

    private static UUID readUuid(DataInput in) throws IOException {
        return new UUID(in.readLong(), in.readLong());
    }

    private static void writeInstant(DataOutput out, Instant t) throws IOException {
        out.writeLong(t.getEpochSecond());
        out.writeInt(t.getNano());
    }

    private static Instant readInstant(DataInput in) throws IOException {
        return Instant.ofEpochSecond(in.readLong(), in.readInt());
    }

    private static void writeOptional(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readOptional(DataInput in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    /** Strings longer than writeUTF's 64 KB limit. */
    private static void writeLong(DataOutput out, String s) throws IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readLong(DataInput in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void writeStrings(DataOutput out, List<String> values) throws IOException {
        out.writeInt(values.size());
        for (String v : values) {
            out.writeUTF(v);
        }
    }

    private static List<String> readStrings(DataInput in) throws IOException {
        int n = in.readInt();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readUTF());
        }
        return out;
    }
}
