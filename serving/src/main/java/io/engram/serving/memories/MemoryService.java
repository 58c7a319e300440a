package io.engram.serving.memories;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.dedup.ChangePlanner;
import io.engram.dedup.UserMemories;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.serving.http.Problem;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.recall.ResultCache;
import io.engram.serving.store.JdbcPool;
import io.engram.serving.store.OpenSearchHttp;
import io.engram.store.Archives;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory API besides recall: explicit store (through the same dedup decision as the write
 * plane), read, list, update, delete, forget a whole scope, history. Every statement carries the
 * caller's full scope, so an id of another user or tenant is simply not found.
 */
public final class MemoryService {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryService.class);
    static final String COLUMNS =
            "id, user_id, session_id, type, content, tags, metadata, source, source_turn_ids, importance, quality_score,"
                    + " consistency_score, decay_score, usage_count, last_accessed_at, tier, status, valid_from, valid_to,"
                    + " superseded_by, version, embedding_version, created_at, updated_at";
    static final String IN_SCOPE =
            " tenant_id = $1 and project_id = $2 and environment = $3 and user_id = $4";

    private final Pool pool;
    private final JdbcPool jdbc;
    private final WorkerExecutor writers;
    private final OpenSearchHttp openSearch;
    private final OpenSearchClient indexWriter;
    private final String alias;
    private final EmbeddingWorker embedder;
    private final ChangePlanner planner;
    private final Optional<ResultCache> cache;
    private final PeerNotices peers;

    public MemoryService(
            Vertx vertx,
            Pool pool,
            JdbcPool jdbc,
            OpenSearchHttp openSearch,
            OpenSearchClient indexWriter,
            String alias,
            EmbeddingWorker embedder,
            ChangePlanner planner,
            Optional<ResultCache> cache,
            PeerNotices peers) {
        this.pool = pool;
        this.jdbc = jdbc;
        this.writers = vertx.createSharedWorkerExecutor("engram-writes", 4);
        this.openSearch = openSearch;
        this.indexWriter = indexWriter;
        this.alias = alias;
        this.embedder = embedder;
        this.planner = planner;
        this.cache = cache;
        this.peers = peers;
    }

    /** A validated explicit store. */
    public record StoreRequest(
            Scope scope,
            String content,
            MemoryType type,
            List<String> tags,
            JsonObject metadata,
            double importance,
            String sessionId,
            Instant validFrom) {}

    public Future<JsonObject> store(StoreRequest r) {
        CandidateFact fact =
                new CandidateFact(
                        r.type(), r.content(), r.importance(), r.tags(), List.of(), r.validFrom());
        return embedder.embed(r.scope(), List.of(r.content()))
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "embedding model unavailable: nothing was stored")))
                .compose(
                        vectors ->
                                nearest(r.scope(), r.type(), vectors.get(0))
                                        .compose(
                                                known -> {
                                                    ChangePlanner.Planned planned =
                                                            planner.plan(
                                                                            r.scope(),
                                                                            Optional.ofNullable(
                                                                                    r.sessionId()),
                                                                            "api",
                                                                            List.of(fact),
                                                                            vectors,
                                                                            known,
                                                                            Instant.now())
                                                                    .get(0);
                                                    return write(
                                                                    new MemoryStoreWriter(alias),
                                                                    List.of(planned.change()))
                                                            .compose(
                                                                    written ->
                                                                            stored(
                                                                                    r, planned,
                                                                                    written));
                                                }));
    }

    /**
     * The answer to an explicit store, from what was written: the planned change, or the new memory
     * that replaced it when the memory it matched stopped being current meanwhile (nothing written:
     * an active memory already says the same words).
     */
    private Future<JsonObject> stored(
            StoreRequest r, ChangePlanner.Planned planned, List<MemoryChange> written) {
        boolean asPlanned = !written.isEmpty() && written.get(0) == planned.change();
        MemoryChange done = written.isEmpty() ? planned.change() : written.get(0);
        UUID id = done.memory().id();
        Future<Void> metadata =
                r.metadata() == null || written.isEmpty()
                        ? Future.succeededFuture()
                        : pool.preparedQuery(
                                        "update memories set metadata = $1::jsonb where id = $2")
                                .execute(Tuple.of(r.metadata().encode(), id))
                                .mapEmpty();
        return metadata.map(
                v ->
                        new JsonObject()
                                .put("id", id.toString())
                                .put(
                                        "decision",
                                        asPlanned
                                                ? planned.decision().kind()
                                                : written.isEmpty() ? "noop" : "create")
                                .put(
                                        "reason",
                                        asPlanned
                                                ? planned.decision().reason()
                                                : written.isEmpty()
                                                        ? "an active memory already says the same"
                                                                + " words"
                                                        : done.reason())
                                .put(
                                        "similarity",
                                        Math.round(planned.decision().similarity() * 1000) / 1000.0)
                                .put(
                                        "superseded",
                                        done.replaced().map(m -> m.id().toString()).orElse(null)));
    }

    /** The user's nearest current memories of one type, with vectors, from the index. */
    private Future<UserMemories> nearest(Scope scope, MemoryType type, float[] vector) {
        MemoryQuery q =
                MemoryQuery.forScope(scope)
                        .types(List.of(type.wireName()))
                        .excludeTags(List.of(Excerpts.TAG));
        ObjectNode body = q.knn(vector, 5);
        body.remove("_source");
        return openSearch
                .send("POST", "/" + alias + "/_search?routing=" + q.routing(), body)
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "search index unavailable: nothing was stored")))
                .compose(
                        resp -> {
                            if (!resp.ok()) {
                                return Future.failedFuture(
                                        Problem.unavailable(
                                                "search index answered "
                                                        + resp.status()
                                                        + ": nothing was stored"));
                            }
                            List<Memory> memories = new ArrayList<>();
                            for (JsonNode hit : resp.body().path("hits").path("hits")) {
                                memories.add(MemoryDocuments.fromSource(hit.path("_source")));
                            }
                            return Future.succeededFuture(UserMemories.of(memories, 100));
                        });
    }

    /**
     * Applies changes with the write plane's writer and returns them as written; 503 when a store
     * cannot take them.
     */
    private Future<List<MemoryChange>> write(MemoryStoreWriter writer, List<MemoryChange> changes) {
        return writers.<List<MemoryChange>>executeBlocking(
                        () -> {
                            List<MemoryChange> written =
                                    jdbc.with(c -> writer.writePostgres(c, changes));
                            writer.writeIndex(indexWriter, written);
                            return written;
                        },
                        false)
                .recover(
                        err -> {
                            LOG.warn("explicit write failed: {}", err.toString());
                            return Future.failedFuture(
                                    Problem.unavailable(
                                            "memory store unavailable; retry later ("
                                                    + err.getMessage()
                                                    + ")"));
                        })
                .compose(written -> bump(MemoryStoreWriter.scopes(changes)).map(v -> written));
    }

    /**
     * Brings back an archived memory exactly as it was archived; the id of a consolidated memory
     * brings back every original folded into it and removes the consolidated memory.
     */
    public Future<JsonObject> restore(Scope scope, UUID id) {
        return writers.<java.util.Optional<Archives.Restored>>executeBlocking(
                        () ->
                                jdbc.with(
                                        c ->
                                                Archives.restore(
                                                        c,
                                                        indexWriter,
                                                        alias,
                                                        scope,
                                                        id,
                                                        text ->
                                                                embedder.embed(scope, List.of(text))
                                                                        .toCompletionStage()
                                                                        .toCompletableFuture()
                                                                        .join()
                                                                        .get(0))),
                        false)
                .recover(
                        err -> {
                            LOG.warn("restore failed: {}", err.toString());
                            return Future.failedFuture(
                                    Problem.unavailable(
                                            "memory store unavailable; nothing was restored ("
                                                    + err.getMessage()
                                                    + ")"));
                        })
                .compose(
                        restored -> {
                            if (restored.isEmpty()) {
                                return Future.failedFuture(
                                        Problem.notFound(
                                                "no archived memory " + id + " for this user"));
                            }
                            JsonArray ids = new JsonArray();
                            restored.get().memories().forEach(m -> ids.add(m.id().toString()));
                            JsonObject out =
                                    new JsonObject()
                                            .put("restored", ids)
                                            .put(
                                                    "removed",
                                                    restored.get()
                                                            .removed()
                                                            .map(UUID::toString)
                                                            .orElse(null));
                            return bump(List.of(scope)).map(out);
                        });
    }

    private Future<Void> bump(Iterable<Scope> scopes) {
        return eachCachedScope(scopes, ResultCache::bump);
    }

    /**
     * Invalidates and deletes the scopes' cached answers, which hold memory content. Redis failing
     * leaves them to expire and does not fail the forget.
     */
    private Future<Void> forgetCached(Iterable<Scope> scopes) {
        return eachCachedScope(scopes, ResultCache::forget);
    }

    /**
     * Applies a result-cache operation to every scope. The result cache expires on its own: Redis
     * failing must not fail a write that happened.
     */
    private Future<Void> eachCachedScope(
            Iterable<Scope> scopes,
            java.util.function.BiFunction<ResultCache, Scope, Future<Void>> op) {
        if (cache.isEmpty()) {
            return Future.succeededFuture();
        }
        List<Future<Void>> ops = new ArrayList<>();
        scopes.forEach(s -> ops.add(op.apply(cache.get(), s)));
        return Future.join(ops)
                .<Void>mapEmpty()
                .recover(
                        err -> {
                            LOG.warn("result cache not updated: {}", err.toString());
                            return Future.succeededFuture();
                        });
    }

    public Future<JsonObject> get(Scope scope, UUID id) {
        return pool.preparedQuery(
                        "select " + COLUMNS + " from memories where id = $5 and" + IN_SCOPE)
                .execute(scopeArgs(scope).addUUID(id))
                .map(
                        rows -> {
                            if (rows.size() == 0) {
                                throw missing(id);
                            }
                            return json(rows.iterator().next());
                        });
    }

    /** Lists the user's memories, newest first, with a cursor for the next page. */
    public Future<JsonObject> list(
            Scope scope,
            String type,
            String status,
            String tier,
            String tag,
            int limit,
            String cursor) {
        StringBuilder sql =
                new StringBuilder("select " + COLUMNS + " from memories where" + IN_SCOPE);
        Tuple args = scopeArgs(scope);
        int n = 5;
        if (type != null) {
            sql.append(" and type = $").append(n++);
            args.addString(type);
        }
        sql.append(" and status = $").append(n++);
        args.addString(status == null ? "active" : status);
        if (tier != null) {
            sql.append(" and tier = $").append(n++);
            args.addString(tier);
        }
        if (tag != null) {
            sql.append(" and $").append(n++).append(" = any(tags)");
            args.addString(tag);
        }
        if (cursor != null) {
            String[] c = decodeCursor(cursor);
            sql.append(" and (created_at, id) < ($")
                    .append(n++)
                    .append("::timestamptz, $")
                    .append(n++)
                    .append("::uuid)");
            args.addString(c[0]).addString(c[1]);
        }
        // The limit is a parameter too: one statement per filter combination, whatever the page
        // size.
        sql.append(" order by created_at desc, id desc limit $").append(n);
        args.addInteger(limit + 1);
        return pool.preparedQuery(sql.toString())
                .execute(args)
                .map(
                        rows -> {
                            JsonArray items = new JsonArray();
                            String next = null;
                            int i = 0;
                            for (Row r : rows) {
                                if (i++ == limit) {
                                    JsonObject last = items.getJsonObject(items.size() - 1);
                                    next =
                                            encodeCursor(
                                                    last.getString("created_at"),
                                                    last.getString("id"));
                                    break;
                                }
                                items.add(json(r));
                            }
                            return new JsonObject().put("memories", items).put("next_cursor", next);
                        });
    }

    /** A new version with the given fields changed; new content is re-embedded and re-indexed. */
    public Future<JsonObject> update(
            Scope scope,
            UUID id,
            String content,
            List<String> tags,
            Double importance,
            JsonObject metadata) {
        MemoryQuery q = MemoryQuery.forScope(scope).includeHistory(true);
        ObjectNode body = q.ids(List.of(id.toString()));
        return openSearch
                .send("POST", "/" + alias + "/_search?routing=" + q.routing(), body)
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "search index unavailable: nothing was changed")))
                .compose(
                        resp -> {
                            JsonNode hits = resp.body().path("hits").path("hits");
                            if (!resp.ok() || hits.size() == 0) {
                                return Future.failedFuture(missing(id));
                            }
                            Memory current =
                                    MemoryDocuments.fromSource(hits.get(0).path("_source"));
                            return pool.preparedQuery(
                                            "select source_turn_ids, importance from memories where id = $5 and"
                                                    + IN_SCOPE)
                                    .execute(scopeArgs(scope).addUUID(id))
                                    .compose(
                                            rows -> {
                                                if (rows.size() == 0) {
                                                    return Future.failedFuture(missing(id));
                                                }
                                                Row row = rows.iterator().next();
                                                List<String> sources =
                                                        List.of(
                                                                row.getArrayOfStrings(
                                                                        "source_turn_ids"));
                                                String newContent =
                                                        content == null
                                                                ? current.content()
                                                                : content;
                                                Future<List<float[]>> vector =
                                                        content == null
                                                                ? Future.succeededFuture(
                                                                        List.of(current.vector()))
                                                                : embedder.embed(
                                                                        scope, List.of(newContent));
                                                return vector.compose(
                                                        v -> {
                                                            Memory updated =
                                                                    current.withContent(
                                                                            newContent,
                                                                            tags == null
                                                                                    ? current.tags()
                                                                                    : tags,
                                                                            sources,
                                                                            importance == null
                                                                                    ? row.getFloat(
                                                                                            "importance")
                                                                                    : importance,
                                                                            current.validFrom(),
                                                                            v.get(0));
                                                            return write(
                                                                            MemoryStoreWriter
                                                                                    .forEdits(
                                                                                            alias),
                                                                            List.of(
                                                                                    new MemoryChange
                                                                                            .Updated(
                                                                                            updated,
                                                                                            current
                                                                                                    .content(),
                                                                                            "changed through the API",
                                                                                            1.0)))
                                                                    .compose(
                                                                            x ->
                                                                                    metadata == null
                                                                                            ? Future
                                                                                                    .succeededFuture()
                                                                                            : pool.preparedQuery(
                                                                                                            "update memories set metadata = $1::jsonb where id = $2")
                                                                                                    .execute(
                                                                                                            Tuple
                                                                                                                    .of(
                                                                                                                            metadata
                                                                                                                                    .encode(),
                                                                                                                            id))
                                                                                                    .mapEmpty())
                                                                    .compose(x -> get(scope, id));
                                                        });
                                            });
                        });
    }

    public Future<Void> delete(Scope scope, UUID id) {
        return pool.withTransaction(
                        c ->
                                c.preparedQuery(
                                                "delete from memories where id = $5 and"
                                                        + IN_SCOPE
                                                        + " returning id")
                                        .execute(scopeArgs(scope).addUUID(id))
                                        .compose(
                                                rows -> {
                                                    if (rows.size() == 0) {
                                                        return Future.failedFuture(missing(id));
                                                    }
                                                    return c.preparedQuery(
                                                                    "insert into memory_events (memory_id, tenant_id, project_id, environment, user_id, kind)"
                                                                            + " values ($5, $1, $2, $3, $4, 'delete')")
                                                            .execute(scopeArgs(scope).addUUID(id))
                                                            .mapEmpty();
                                                }))
                .compose(
                        v ->
                                openSearch
                                        .send(
                                                "DELETE",
                                                "/"
                                                        + alias
                                                        + "/_doc/"
                                                        + id
                                                        + "?routing="
                                                        + scope.routing()
                                                        + "&refresh=true",
                                                null)
                                        .recover(
                                                err ->
                                                        Future.failedFuture(
                                                                Problem.unavailable(
                                                                        "deleted from the database but not yet from the index; retry"))))
                .compose(v -> bump(List.of(scope)));
    }

    /**
     * Forgets everything of a user (in one project or all of the key's projects): rows, history,
     * archives, index documents, cached results, the texts kept by the embedding caches of this
     * process and, through {@link PeerNotices}, of the other serving instances. Irreversible;
     * audited without content.
     */
    public Future<JsonObject> forget(
            String tenant, String environment, String userId, String projectOrNull, String keyId) {
        String where =
                " tenant_id = $1 and environment = $2 and user_id = $3"
                        + (projectOrNull == null ? "" : " and project_id = $4");
        Tuple args = Tuple.of(tenant, environment, userId);
        if (projectOrNull != null) {
            args.addString(projectOrNull);
        }
        return pool.withTransaction(
                        c ->
                                c.preparedQuery(
                                                "delete from memories where"
                                                        + where
                                                        + " returning project_id")
                                        .execute(args)
                                        .compose(
                                                deleted ->
                                                        c.preparedQuery(
                                                                        "delete from memory_events where"
                                                                                + where)
                                                                .execute(args)
                                                                .compose(
                                                                        x ->
                                                                                c.preparedQuery(
                                                                                                "delete from archives where"
                                                                                                        + where)
                                                                                        .execute(
                                                                                                args))
                                                                .compose(
                                                                        x ->
                                                                                c.preparedQuery(
                                                                                                "insert into forget_audit (tenant_id, project_id, environment, user_id, requested_by, memories_deleted)"
                                                                                                        + " values ($1, $2, $3, $4, $5, $6)")
                                                                                        .execute(
                                                                                                Tuple
                                                                                                        .of(
                                                                                                                tenant,
                                                                                                                projectOrNull,
                                                                                                                environment,
                                                                                                                userId,
                                                                                                                UUID
                                                                                                                        .fromString(
                                                                                                                                keyId),
                                                                                                                deleted
                                                                                                                        .rowCount())))
                                                                .map(
                                                                        x ->
                                                                                projectsOf(
                                                                                        deleted,
                                                                                        deleted
                                                                                                .rowCount()))))
                .compose(
                        result -> {
                            ObjectNode query =
                                    new com.fasterxml.jackson.databind.ObjectMapper()
                                            .createObjectNode();
                            var filter =
                                    query.putObject("query").putObject("bool").putArray("filter");
                            filter.addObject().putObject("term").put("tenant_id", tenant);
                            filter.addObject().putObject("term").put("environment", environment);
                            filter.addObject().putObject("term").put("user_id", userId);
                            if (projectOrNull != null) {
                                filter.addObject()
                                        .putObject("term")
                                        .put("project_id", projectOrNull);
                            }
                            String routing = tenant + "/" + userId;
                            return openSearch
                                    .send(
                                            "POST",
                                            "/"
                                                    + alias
                                                    + "/_delete_by_query?routing="
                                                    + routing
                                                    + "&refresh=true&conflicts=proceed",
                                            query)
                                    .recover(
                                            err ->
                                                    Future.failedFuture(
                                                            Problem.unavailable(
                                                                    "forgotten in the database but not yet in the index; retry the request")))
                                    .compose(
                                            resp -> {
                                                if (!resp.ok()) {
                                                    LOG.warn(
                                                            "delete_by_query answered {}: {}",
                                                            resp.status(),
                                                            resp.body());
                                                    return Future.failedFuture(
                                                            Problem.unavailable(
                                                                    "index answered "
                                                                            + resp.status()
                                                                            + "; retry the request"));
                                                }
                                                List<Scope> scopes = new ArrayList<>();
                                                for (String project : result.projects) {
                                                    scopes.add(
                                                            new Scope(
                                                                    tenant,
                                                                    project,
                                                                    environment,
                                                                    userId));
                                                }
                                                // The texts embedded for the user, its queries
                                                // included, in every project of the forget, here
                                                // and in the other serving instances.
                                                return peers.forget(
                                                                tenant,
                                                                environment,
                                                                userId,
                                                                projectOrNull)
                                                        .compose(v -> forgetCached(scopes))
                                                        .map(
                                                                v ->
                                                                        new JsonObject()
                                                                                .put(
                                                                                        "user_id",
                                                                                        userId)
                                                                                .put(
                                                                                        "memories_deleted",
                                                                                        result.count)
                                                                                .put(
                                                                                        "projects",
                                                                                        new JsonArray(
                                                                                                result.projects))
                                                                                .put(
                                                                                        "index_documents_deleted",
                                                                                        resp.body()
                                                                                                .path(
                                                                                                        "deleted")
                                                                                                .asLong()));
                                            });
                        });
    }

    private record Forgotten(List<String> projects, int count) {}

    private static Forgotten projectsOf(RowSet<Row> rows, int count) {
        java.util.Set<String> projects = new java.util.LinkedHashSet<>();
        rows.forEach(r -> projects.add(r.getString("project_id")));
        return new Forgotten(new ArrayList<>(projects), count);
    }

    /** Events of the memory and the earlier versions it superseded, newest first. */
    public Future<JsonObject> history(Scope scope, UUID id) {
        return get(scope, id)
                .compose(
                        current ->
                                pool.preparedQuery(
                                                "with recursive chain as ("
                                                        + " select "
                                                        + COLUMNS
                                                        + " from memories where id = $5 and"
                                                        + IN_SCOPE
                                                        + " union all select m.id, m.user_id, m.session_id, m.type, m.content, m.tags, m.metadata, m.source,"
                                                        + " m.source_turn_ids, m.importance, m.quality_score, m.consistency_score, m.decay_score, m.usage_count,"
                                                        + " m.last_accessed_at, m.tier, m.status, m.valid_from, m.valid_to, m.superseded_by, m.version,"
                                                        + " m.embedding_version, m.created_at, m.updated_at"
                                                        + " from memories m join chain c on m.superseded_by = c.id where m.tenant_id = $1 and m.user_id = $4)"
                                                        + " select * from chain order by valid_from desc")
                                        .execute(scopeArgs(scope).addUUID(id))
                                        .compose(
                                                versions ->
                                                        pool.preparedQuery(
                                                                        "select memory_id, kind, version, detail, created_at from memory_events where memory_id = any($5) and"
                                                                                + IN_SCOPE
                                                                                + " and kind <> 'recall' order by created_at desc, id desc limit 200")
                                                                .execute(
                                                                        scopeArgs(scope)
                                                                                .addArrayOfUUID(
                                                                                        ids(
                                                                                                versions)))
                                                                .map(
                                                                        events -> {
                                                                            JsonArray v =
                                                                                    new JsonArray();
                                                                            versions.forEach(
                                                                                    r ->
                                                                                            v.add(
                                                                                                    json(
                                                                                                            r)));
                                                                            JsonArray e =
                                                                                    new JsonArray();
                                                                            for (Row r : events) {
                                                                                e.add(
                                                                                        new JsonObject()
                                                                                                .put(
                                                                                                        "memory_id",
                                                                                                        r.getUUID(
                                                                                                                        "memory_id")
                                                                                                                .toString())
                                                                                                .put(
                                                                                                        "kind",
                                                                                                        r
                                                                                                                .getString(
                                                                                                                        "kind"))
                                                                                                .put(
                                                                                                        "version",
                                                                                                        r
                                                                                                                .getInteger(
                                                                                                                        "version"))
                                                                                                .put(
                                                                                                        "detail",
                                                                                                        r
                                                                                                                .getJsonObject(
                                                                                                                        "detail"))
                                                                                                .put(
                                                                                                        "at",
                                                                                                        String
                                                                                                                .valueOf(
                                                                                                                        r
                                                                                                                                .getOffsetDateTime(
                                                                                                                                        "created_at"))));
                                                                            }
                                                                            return new JsonObject()
                                                                                    .put(
                                                                                            "memory",
                                                                                            current)
                                                                                    .put(
                                                                                            "versions",
                                                                                            v)
                                                                                    .put(
                                                                                            "events",
                                                                                            e);
                                                                        })));
    }

    private static UUID[] ids(RowSet<Row> rows) {
        List<UUID> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getUUID("id")));
        return out.toArray(new UUID[0]);
    }

    private static Problem missing(UUID id) {
        return Problem.notFound("no memory " + id + " for this user");
    }

    static Tuple scopeArgs(Scope s) {
        return Tuple.of(s.tenantId(), s.projectId(), s.environment(), s.userId());
    }

    static JsonObject json(Row r) {
        return new JsonObject()
                .put("id", r.getUUID("id").toString())
                .put("user_id", r.getString("user_id"))
                .put("session_id", r.getString("session_id"))
                .put("type", r.getString("type"))
                .put("content", r.getString("content"))
                .put("tags", new JsonArray(List.of(r.getArrayOfStrings("tags"))))
                .put("metadata", r.getJsonObject("metadata"))
                .put("source", r.getString("source"))
                .put(
                        "source_turn_ids",
                        new JsonArray(List.of(r.getArrayOfStrings("source_turn_ids"))))
                .put("importance", r.getFloat("importance"))
                .put("usage_count", r.getLong("usage_count"))
                .put(
                        "last_accessed_at",
                        r.getOffsetDateTime("last_accessed_at") == null
                                ? null
                                : r.getOffsetDateTime("last_accessed_at").toInstant().toString())
                .put("tier", r.getString("tier"))
                .put("status", r.getString("status"))
                .put("valid_from", r.getOffsetDateTime("valid_from").toInstant().toString())
                .put(
                        "valid_to",
                        r.getOffsetDateTime("valid_to") == null
                                ? null
                                : r.getOffsetDateTime("valid_to").toInstant().toString())
                .put(
                        "superseded_by",
                        r.getUUID("superseded_by") == null
                                ? null
                                : r.getUUID("superseded_by").toString())
                .put("version", r.getInteger("version"))
                .put("embedding_version", r.getString("embedding_version"))
                .put("created_at", r.getOffsetDateTime("created_at").toInstant().toString())
                .put("updated_at", r.getOffsetDateTime("updated_at").toInstant().toString());
    }

    static String encodeCursor(String createdAt, String id) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((createdAt + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    static String[] decodeCursor(String cursor) {
        try {
            String[] parts =
                    new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)
                            .split("\\|");
            Instant.parse(parts[0]);
            UUID.fromString(parts[1]);
            return parts;
        } catch (RuntimeException e) {
            throw Problem.badRequest("cursor: not a cursor returned by this API");
        }
    }

    public void close() {
        writers.close();
    }
}
