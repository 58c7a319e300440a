package io.engram.serving.recall;

import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/** A memory as recall ranks and returns it: the columns its hydrate reads from PostgreSQL. */
record MemoryRow(
        String id,
        String content,
        String type,
        String tier,
        String status,
        List<String> tags,
        List<String> sourceTurnIds,
        double importance,
        double quality,
        double consistency,
        double decay,
        long usageCount,
        Instant createdAt,
        Instant validFrom,
        Instant validTo,
        String embeddingVersion,
        String contradictedBy,
        String sessionId,
        String contradictedByContent) {

    /** The columns, in the order {@link #of} reads them. */
    static final String COLUMNS =
            "id, content, type, tier, status, tags, source_turn_ids, importance, quality_score,"
                    + " consistency_score, decay_score, usage_count, created_at, valid_from, valid_to,"
                    + " embedding_version, contradicted_by, session_id,"
                    // What contradicts a memory, in its words: a recall that returns a value no
                    // longer current says what replaced it or that it ended.
                    + " (select c.content from memories c where c.id = memories.contradicted_by"
                    + " and c.status = 'active')"
                    + " as contradicted_by_content";

    static MemoryRow of(Row r) {
        return new MemoryRow(
                r.getUUID("id").toString(),
                r.getString("content"),
                r.getString("type"),
                r.getString("tier"),
                r.getString("status"),
                strings(r.getArrayOfStrings("tags")),
                strings(r.getArrayOfStrings("source_turn_ids")),
                r.getFloat("importance"),
                r.getFloat("quality_score"),
                r.getFloat("consistency_score"),
                r.getFloat("decay_score"),
                r.getLong("usage_count"),
                instant(r.getValue("created_at")),
                instant(r.getValue("valid_from")),
                instant(r.getValue("valid_to")),
                r.getString("embedding_version"),
                r.getUUID("contradicted_by") == null
                        ? null
                        : r.getUUID("contradicted_by").toString(),
                r.getString("session_id"),
                r.getString("contradicted_by_content"));
    }

    private static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (value instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC);
        }
        return Instant.parse(value.toString());
    }

    private static List<String> strings(String[] values) {
        return values == null ? List.of() : List.of(values);
    }
}
