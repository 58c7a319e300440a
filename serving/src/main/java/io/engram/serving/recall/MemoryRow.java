package io.engram.serving.recall;

import io.vertx.sqlclient.Row;
import java.time.Instant;
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
        String embeddingVersion) {

    /** The columns, in the order {@link #of} reads them. */
    static final String COLUMNS =
            "id, content, type, tier, status, tags, source_turn_ids, importance, quality_score,"
                    + " consistency_score, decay_score, usage_count, created_at, valid_from, valid_to,"
                    + " embedding_version";

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
                RecallService.instant(r.getValue("created_at")),
                RecallService.instant(r.getValue("valid_from")),
                RecallService.instant(r.getValue("valid_to")),
                r.getString("embedding_version"));
    }

    private static List<String> strings(String[] values) {
        return values == null ? List.of() : List.of(values);
    }
}
