package io.engram.serving.memories;

import io.engram.memory.Scope;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A memory as the API shows it: the columns read for it (one list for every statement of the memory
 * API) and their JSON. Also the scope condition every statement carries, and the ETag.
 */
public final class MemoryJson {

    private static final List<String> COLUMN_LIST =
            List.of(
                    "id",
                    "user_id",
                    "session_id",
                    "type",
                    "content",
                    "tags",
                    "metadata",
                    "source",
                    "source_turn_ids",
                    "importance",
                    "quality_score",
                    "consistency_score",
                    "decay_score",
                    "usage_count",
                    "last_accessed_at",
                    "tier",
                    "status",
                    "valid_from",
                    "valid_to",
                    "superseded_by",
                    "version",
                    "embedding_version",
                    "created_at",
                    "updated_at",
                    "contradicted_by");

    /** The columns {@link #of} reads, for a select list. */
    public static final String COLUMNS = columns("");

    /** The scope of a statement whose first four parameters are {@link #scopeArgs}. */
    static final String IN_SCOPE =
            " tenant_id = $1 and project_id = $2 and environment = $3 and user_id = $4";

    private MemoryJson() {}

    /** The columns with a table alias, e.g. {@code m.}. */
    static String columns(String prefix) {
        return COLUMN_LIST.stream().map(c -> prefix + c).collect(Collectors.joining(", "));
    }

    static Tuple scopeArgs(Scope s) {
        return Tuple.of(s.tenantId(), s.projectId(), s.environment(), s.userId());
    }

    /** The ETag of a memory at a version; {@code If-Match} takes it back. */
    static String etag(int version) {
        return "\"" + version + "\"";
    }

    public static JsonObject of(Row r) {
        return new JsonObject()
                .put("id", r.getUUID("id").toString())
                .put("user_id", r.getString("user_id"))
                .put("session_id", r.getString("session_id"))
                .put("type", r.getString("type"))
                .put("content", r.getString("content"))
                .put("tags", new JsonArray(List.of(r.getArrayOfStrings("tags"))))
                .put("metadata", metadata(r.getValue("metadata")))
                .put("source", r.getString("source"))
                .put(
                        "source_turn_ids",
                        new JsonArray(List.of(r.getArrayOfStrings("source_turn_ids"))))
                .put("importance", r.getFloat("importance"))
                .put("quality", r.getFloat("quality_score"))
                .put("consistency", r.getFloat("consistency_score"))
                .put("usage_count", r.getLong("usage_count"))
                .put("last_accessed_at", time(r, "last_accessed_at"))
                .put("tier", r.getString("tier"))
                .put("status", r.getString("status"))
                .put("valid_from", time(r, "valid_from"))
                .put("valid_to", time(r, "valid_to"))
                .put(
                        "superseded_by",
                        r.getUUID("superseded_by") == null
                                ? null
                                : r.getUUID("superseded_by").toString())
                .put("version", r.getInteger("version"))
                .put("embedding_version", r.getString("embedding_version"))
                .put("created_at", time(r, "created_at"))
                .put("updated_at", time(r, "updated_at"))
                .put(
                        "contradicted_by",
                        r.getUUID("contradicted_by") == null
                                ? null
                                : r.getUUID("contradicted_by").toString());
    }

    private static String time(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant().toString();
    }

    /**
     * The metadata object. Rows written before metadata was stored as an object hold it as a JSON
     * string of the object; anything else unreadable shows as null rather than failing the read.
     */
    static JsonObject metadata(Object value) {
        if (value instanceof JsonObject o) {
            return o;
        }
        if (value instanceof String s) {
            try {
                return new JsonObject(s);
            } catch (DecodeException | ClassCastException e) {
                return null;
            }
        }
        return null;
    }
}
