package io.engram.serving.memories;

import static io.engram.serving.memories.MemoryJson.IN_SCOPE;
import static io.engram.serving.memories.MemoryJson.scopeArgs;

import io.engram.memory.Scope;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** Reading memories: one by id, a user's list page by page, and a memory's history. */
public final class MemoryReads {

    /** The list's filters; null ones are not applied (status defaults to active). */
    public record ListQuery(
            Scope scope,
            String type,
            String status,
            String tier,
            String tag,
            int limit,
            String cursor) {}

    private static final String HISTORY =
            "with recursive chain as ("
                    + " select "
                    + MemoryJson.COLUMNS
                    + " from memories where id = $5 and"
                    + IN_SCOPE
                    + " union all select "
                    + MemoryJson.columns("m.")
                    + " from memories m join chain c on m.superseded_by = c.id"
                    + " where m.tenant_id = $1 and m.project_id = $2 and m.environment = $3"
                    + " and m.user_id = $4)"
                    + " select * from chain order by valid_from desc";

    private static final String EVENTS =
            "select memory_id, kind, version, detail, created_at from memory_events"
                    + " where memory_id = any($5) and"
                    + IN_SCOPE
                    + " and kind <> 'recall' order by created_at desc, id desc limit 200";

    private final Pool pool;

    public MemoryReads(Pool pool) {
        this.pool = pool;
    }

    public Future<JsonObject> get(Scope scope, UUID id) {
        return pool.preparedQuery(
                        "select "
                                + MemoryJson.COLUMNS
                                + " from memories where id = $5 and"
                                + IN_SCOPE)
                .execute(scopeArgs(scope).addUUID(id))
                .map(
                        rows -> {
                            if (rows.size() == 0) {
                                throw missing(id);
                            }
                            return MemoryJson.of(rows.iterator().next());
                        });
    }

    /** A page of the user's memories, newest first, with a cursor for the next page. */
    public Future<JsonObject> list(ListQuery q) {
        StringBuilder sql =
                new StringBuilder(
                        "select " + MemoryJson.COLUMNS + " from memories where" + IN_SCOPE);
        Tuple args = scopeArgs(q.scope());
        int n = 5;
        if (q.type() != null) {
            sql.append(" and type = $").append(n++);
            args.addString(q.type());
        }
        sql.append(" and status = $").append(n++);
        args.addString(q.status() == null ? "active" : q.status());
        if (q.tier() != null) {
            sql.append(" and tier = $").append(n++);
            args.addString(q.tier());
        }
        if (q.tag() != null) {
            sql.append(" and $").append(n++).append(" = any(tags)");
            args.addString(q.tag());
        }
        if (q.cursor() != null) {
            Cursor c = Cursor.decode(q.cursor());
            sql.append(" and (created_at, id) < ($")
                    .append(n++)
                    .append(", $")
                    .append(n++)
                    .append(")");
            args.addOffsetDateTime(c.createdAt().atOffset(ZoneOffset.UTC)).addUUID(c.id());
        }
        // The limit is a parameter too: one statement per filter combination, whatever the page
        // size.
        sql.append(" order by created_at desc, id desc limit $").append(n);
        args.addInteger(q.limit() + 1);
        return pool.preparedQuery(sql.toString()).execute(args).map(rows -> page(rows, q.limit()));
    }

    private static JsonObject page(RowSet<Row> rows, int limit) {
        JsonArray items = new JsonArray();
        String next = null;
        int i = 0;
        OffsetDateTime lastCreated = null;
        UUID lastId = null;
        for (Row r : rows) {
            if (i++ == limit) {
                next = new Cursor(lastCreated.toInstant(), lastId).encode();
                break;
            }
            items.add(MemoryJson.of(r));
            lastCreated = r.getOffsetDateTime("created_at");
            lastId = r.getUUID("id");
        }
        return new JsonObject().put("memories", items).put("next_cursor", next);
    }

    /** Where a page ended: the last memory's creation time (to the microsecond) and id. */
    record Cursor(Instant createdAt, UUID id) {

        String encode() {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString((createdAt + "|" + id).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String cursor) {
            try {
                String[] parts =
                        new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)
                                .split("\\|", -1);
                if (parts.length != 2) {
                    throw new IllegalArgumentException();
                }
                return new Cursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
            } catch (RuntimeException e) {
                throw Problem.badRequest("cursor: not a cursor returned by this API");
            }
        }
    }

    /** The memory and the earlier versions it superseded, newest first, with their events. */
    public Future<JsonObject> history(Scope scope, UUID id) {
        return get(scope, id)
                .compose(
                        current ->
                                pool.preparedQuery(HISTORY)
                                        .execute(scopeArgs(scope).addUUID(id))
                                        .compose(versions -> withEvents(scope, current, versions)));
    }

    private Future<JsonObject> withEvents(Scope scope, JsonObject current, RowSet<Row> versions) {
        List<UUID> ids = new ArrayList<>();
        JsonArray shown = new JsonArray();
        for (Row r : versions) {
            ids.add(r.getUUID("id"));
            shown.add(MemoryJson.of(r));
        }
        return pool.preparedQuery(EVENTS)
                .execute(scopeArgs(scope).addArrayOfUUID(ids.toArray(new UUID[0])))
                .map(
                        events -> {
                            JsonArray e = new JsonArray();
                            events.forEach(r -> e.add(event(r)));
                            return new JsonObject()
                                    .put("memory", current)
                                    .put("versions", shown)
                                    .put("events", e);
                        });
    }

    private static JsonObject event(Row r) {
        return new JsonObject()
                .put("memory_id", r.getUUID("memory_id").toString())
                .put("kind", r.getString("kind"))
                .put("version", r.getInteger("version"))
                .put("detail", MemoryJson.metadata(r.getValue("detail")))
                .put("at", r.getOffsetDateTime("created_at").toInstant().toString());
    }

    static Problem missing(UUID id) {
        return Problem.notFound("no memory " + id + " for this user");
    }
}
