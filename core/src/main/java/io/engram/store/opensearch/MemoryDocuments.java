package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.engram.memory.Memory;
import org.opensearch.client.opensearch._types.VersionType;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/** The OpenSearch document of a memory and the bulk operations that write it. */
public final class MemoryDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MemoryDocuments() {}

    public static ObjectNode source(Memory m) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", m.id().toString());
        o.put("tenant_id", m.scope().tenantId());
        o.put("project_id", m.scope().projectId());
        o.put("environment", m.scope().environment());
        o.put("user_id", m.scope().userId());
        m.sessionId().ifPresent(s -> o.put("session_id", s));
        o.put("type", m.type().wireName());
        o.put("tier", m.tier().wireName());
        o.put("status", m.status().wireName());
        ArrayNode tags = o.putArray("tags");
        m.tags().forEach(tags::add);
        o.put("valid_from", m.validFrom().toString());
        m.validTo().ifPresent(t -> o.put("valid_to", t.toString()));
        o.put("created_at", m.createdAt().toString());
        o.put("importance", m.importance());
        o.put("version", m.version());
        o.put("embedding_version", m.embeddingVersion());
        o.put("content", m.content());
        // A memory without a vector (a conversation excerpt) is found by its words alone. The
        // vector is written by hand: number formatting was most of a bulk request's cost.
        if (m.vector() != null && m.vector().length > 0) {
            o.putRawValue(MemoryIndex.VECTOR_FIELD, vectorJson(m.vector()));
        }
        return o;
    }

    /**
     * A vector as a JSON array with six decimals, written by hand: the shortest exact form of a
     * float has up to nine significant digits, so this is both cheaper to write and about a third
     * shorter for OpenSearch to parse. Vectors are unit length, so a rounding of at most 5e-7 per
     * component moves no score that matters.
     */
    static RawValue vectorJson(float[] vector) {
        StringBuilder out = new StringBuilder(vector.length * 10 + 2).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            long scaled = Math.round(vector[i] * 1_000_000d);
            if (scaled < 0) {
                out.append('-');
                scaled = -scaled;
            }
            out.append(scaled / 1_000_000).append('.');
            // Six digits into the builder: no String per component.
            int fraction = (int) (scaled % 1_000_000);
            for (int d = 100_000; d > 0; d /= 10) {
                out.append((char) ('0' + fraction / d % 10));
            }
        }
        return new RawValue(out.append(']').toString());
    }

    /** A memory from its indexed document (as written by {@link #source}). */
    public static Memory fromSource(com.fasterxml.jackson.databind.JsonNode s) {
        com.fasterxml.jackson.databind.JsonNode vec = s.path(MemoryIndex.VECTOR_FIELD);
        float[] vector = new float[vec.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = (float) vec.get(i).asDouble();
        }
        java.util.List<String> tags = new java.util.ArrayList<>();
        s.path("tags").forEach(t -> tags.add(t.asText()));
        return new Memory(
                java.util.UUID.fromString(s.path("id").asText()),
                new io.engram.memory.Scope(
                        s.path("tenant_id").asText(),
                        s.path("project_id").asText(),
                        s.path("environment").asText(),
                        s.path("user_id").asText()),
                java.util.Optional.ofNullable(
                        s.hasNonNull("session_id") ? s.path("session_id").asText() : null),
                io.engram.memory.MemoryType.fromWire(s.path("type").asText()),
                s.path("content").asText(),
                tags,
                "conversation",
                java.util.List.of(),
                s.path("importance").asDouble(),
                io.engram.memory.Tier.valueOf(
                        s.path("tier").asText("hot").toUpperCase(java.util.Locale.ROOT)),
                io.engram.memory.MemoryStatus.valueOf(
                        s.path("status").asText("active").toUpperCase(java.util.Locale.ROOT)),
                java.time.Instant.parse(s.path("valid_from").asText()),
                s.hasNonNull("valid_to")
                        ? java.util.Optional.of(
                                java.time.Instant.parse(s.path("valid_to").asText()))
                        : java.util.Optional.empty(),
                java.util.Optional.empty(),
                s.path("version").asInt(1),
                s.path("embedding_version").asText(),
                vector,
                java.time.Instant.parse(s.path("created_at").asText()));
    }

    /**
     * External document versions are the memory's version times this stride. A maintenance job's
     * partial update (a tier move) raises the stored version by one, which stays below the next
     * content version, so it can never make a newer write look stale.
     */
    public static final long VERSION_STRIDE = 1_000_000L;

    /**
     * The bulk operation that indexes a memory. The memory's version is the external version, so
     * replaying an older write can never overwrite a newer one.
     */
    public static BulkOperation index(String alias, Memory m) {
        return indexing(alias, m, true);
    }

    /**
     * An index operation without a version check: for a memory brought back from the archive, whose
     * restored version is older than the deletion the index remembers.
     */
    public static BulkOperation restore(String alias, Memory m) {
        return indexing(alias, m, false);
    }

    private static BulkOperation indexing(String alias, Memory m, boolean versioned) {
        ObjectNode source = source(m);
        return BulkOperation.of(
                b ->
                        b.index(
                                i -> {
                                    i.index(alias)
                                            .id(m.id().toString())
                                            .routing(m.scope().routing())
                                            .document(source);
                                    if (versioned) {
                                        i.version(m.version() * VERSION_STRIDE)
                                                .versionType(VersionType.ExternalGte);
                                    }
                                    return i;
                                }));
    }

    /** A partial update of the tier (a maintenance move). */
    public static BulkOperation tier(String alias, String id, String routing, String tier) {
        ObjectNode doc = JSON.createObjectNode().put("tier", tier);
        return BulkOperation.of(
                b ->
                        b.update(
                                u ->
                                        u.index(alias)
                                                .id(id)
                                                .routing(routing)
                                                .retryOnConflict(3)
                                                .document(doc)));
    }

    /** A delete of one document (archived, expired or deleted memories leave the index). */
    public static BulkOperation delete(String alias, String id, String routing) {
        return BulkOperation.of(b -> b.delete(d -> d.index(alias).id(id).routing(routing)));
    }
}
