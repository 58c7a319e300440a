package io.engram.dedup;

import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The current memories of one user that the write path knows about, with their vectors: what a
 * candidate fact is compared with. Bounded: the oldest are dropped first (they stay in the stores
 * and are found again through the index when the user's state is reloaded).
 */
public final class UserMemories {

    private final LinkedHashMap<UUID, Memory> active = new LinkedHashMap<>();
    private final int capacity;

    public UserMemories(int capacity) {
        this.capacity = capacity;
    }

    public static UserMemories of(List<Memory> memories, int capacity) {
        UserMemories u = new UserMemories(capacity);
        memories.stream().sorted(Comparator.comparing(Memory::createdAt)).forEach(u::put);
        return u;
    }

    public List<Memory> memories() {
        return new ArrayList<>(active.values());
    }

    public int capacity() {
        return capacity;
    }

    public int size() {
        return active.size();
    }

    public Memory get(UUID id) {
        return active.get(id);
    }

    /** The current memories that may give a value (no procedure, no excerpt), oldest first. */
    public List<Memory> valued() {
        List<Memory> out = new ArrayList<>();
        for (Memory m : active.values()) {
            if (m.type() != MemoryType.PROCEDURAL
                    && !io.engram.extraction.Excerpts.isExcerpt(m.tags())) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * A current memory holding the value a switch replaces: what it becomes with the new value, and
     * what it was the value of.
     */
    public record Replaced(Memory memory, String sentence, String attribute, String value) {}

    /**
     * The latest current memory whose value is the one {@code change} replaces: by its key, or (a
     * memory no key reads, "Dana plays guitar.") by its last words.
     */
    public java.util.Optional<Replaced> replacedBy(
            io.engram.extraction.statements.FactSwitch change) {
        Replaced found = null;
        for (Memory m : active.values()) {
            if (m.type() == MemoryType.PROCEDURAL
                    || io.engram.extraction.Excerpts.isExcerpt(m.tags())) {
                continue;
            }
            var key = io.engram.extraction.statements.FactKey.of(m.content());
            if (key.isPresent()) {
                if (change.replaces(key.get())) {
                    found =
                            new Replaced(
                                    m,
                                    key.get()
                                            .sentence(
                                                    new io.engram.extraction.statements.FactKey(
                                                                    key.get().subject(),
                                                                    key.get().attribute(),
                                                                    change.to())
                                                            .casedAs(key.get())
                                                            .value()),
                                    key.get().attribute(),
                                    key.get().value());
                }
                continue;
            }
            var rewritten = change.rewrite(m.content());
            if (rewritten.isPresent()) {
                found =
                        new Replaced(
                                m,
                                rewritten.get(),
                                "what " + change.subject() + " said",
                                change.from());
            }
        }
        return java.util.Optional.ofNullable(found);
    }

    /**
     * The latest current memory of {@code type} that gives a value of the same thing as {@code key}
     * (same subject, same attribute or a more or less specific one), if any.
     */
    public java.util.Optional<Memory> sameThing(
            io.engram.extraction.statements.FactKey key, MemoryType type) {
        Memory found = null;
        for (Memory m : active.values()) {
            // A value is a value whatever kind of memory said it ("Dana had their third child"
            // after "Dana has two kids"); a procedure and an excerpt give none.
            if (m.type() != type
                    && (m.type() == MemoryType.PROCEDURAL || type == MemoryType.PROCEDURAL)) {
                continue;
            }
            if (io.engram.extraction.Excerpts.isExcerpt(m.tags())) {
                continue;
            }
            var other = io.engram.extraction.statements.FactKey.of(m.content());
            if (other.isPresent() && other.get().sameThingAs(key)) {
                found = m;
            }
        }
        return java.util.Optional.ofNullable(found);
    }

    /** The {@code k} most similar current memories of {@code type}, on the model's scale. */
    public List<ExistingMemory> nearest(MemoryType type, float[] vector, int k, ModelSpec scale) {
        List<ExistingMemory> all = new ArrayList<>();
        for (Memory m : active.values()) {
            if (m.type() == type && m.vector().length == vector.length) {
                all.add(
                        new ExistingMemory(
                                m.id(),
                                m.type(),
                                m.content(),
                                scale.similarity(Embedder.cosine(vector, m.vector()))));
            }
        }
        all.sort(Comparator.comparingDouble(ExistingMemory::similarity).reversed());
        return all.subList(0, Math.min(k, all.size()));
    }

    /** Folds a change in, so later candidates of the same batch see it. */
    public void apply(MemoryChange change) {
        change.replaced().ifPresent(old -> active.remove(old.id()));
        put(change.memory());
    }

    private void put(Memory m) {
        if (m.status() != MemoryStatus.ACTIVE) {
            active.remove(m.id());
            return;
        }
        active.remove(m.id());
        active.put(m.id(), m);
        while (active.size() > capacity) {
            UUID eldest = active.keySet().iterator().next();
            active.remove(eldest);
        }
    }

    public Map<UUID, Memory> view() {
        return java.util.Collections.unmodifiableMap(active);
    }
}
