package io.engram.serving.memories;

import static io.engram.serving.memories.MemoryJson.IN_SCOPE;
import static io.engram.serving.memories.MemoryJson.scopeArgs;

import io.engram.embedding.ModelSpec;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.Scope;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.store.Archives;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryRows;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.Transactions;
import io.engram.store.UserLocks;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Changing one memory: a new version (PATCH), a delete, a restore from the archive. Edits of one
 * memory are serialised on its row: each applies to the version before it, none is lost. A client
 * that must not overwrite an edit it has not seen sends {@code If-Match} with the version it read
 * (the {@code ETag}), and gets 412 when the memory moved on.
 */
public final class MemoryEdits {

    /** What a PATCH asks; null fields stay as they are. */
    public record Edit(String content, List<String> tags, Double importance, JsonObject metadata) {

        /** The fields a PATCH body may have. */
        public static final java.util.Set<String> FIELDS =
                java.util.Set.of("content", "tags", "importance", "metadata");

        /** A PATCH body checked field by field; 400 when it changes nothing it could. */
        public static Edit parse(JsonObject body) {
            if (body.isEmpty()) {
                throw Problem.badRequest(
                        "body: give at least one of content, tags, importance, metadata");
            }
            return new Edit(
                    Fields.optionalText(body, "content", 8000),
                    body.containsKey("tags") ? ExplicitStore.storableTags(body) : null,
                    body.containsKey("importance")
                            ? Fields.real(body, "importance", 0.5, 0, 1)
                            : null,
                    Fields.json(body, "metadata", 50));
        }
    }

    /** The outcome of one attempt: done, nothing to change, or the content moved under us. */
    private sealed interface Outcome {
        record Changed(MemoryChange change) implements Outcome {}

        record Unchanged() implements Outcome {}

        record ContentMoved() implements Outcome {}
    }

    private static final int ATTEMPTS = 5;

    private static final String LOCK_ROW =
            "select "
                    + MemoryRows.COLUMNS
                    + ", metadata::text as metadata_text from memories where id = ? and tenant_id = ?"
                    + " and project_id = ? and environment = ? and user_id = ? for update";

    private final MemoryWrites writes;
    private final Pool pool;
    private final MemoryReads reads;
    private final EmbeddingWorker embedder;

    MemoryEdits(MemoryWrites writes, Pool pool, MemoryReads reads, EmbeddingWorker embedder) {
        this.writes = writes;
        this.pool = pool;
        this.reads = reads;
        this.embedder = embedder;
    }

    /**
     * Applies the edit to the memory's current version; answers the memory, with {@code changed}
     * false when it already was as asked (no new version). {@code ifMatch}: the version the
     * client's edit is based on, or null.
     */
    public Future<JsonObject> update(Scope scope, UUID id, Edit edit, Integer ifMatch) {
        return attempt(scope, id, edit, ifMatch, 1);
    }

    private Future<JsonObject> attempt(Scope scope, UUID id, Edit edit, Integer ifMatch, int n) {
        return reads.get(scope, id)
                .compose(seen -> vectorFor(scope, edit, seen))
                .compose(
                        seen ->
                                writes.blocking(
                                        "nothing was changed",
                                        c -> applyLocked(c, scope, id, edit, ifMatch, seen)))
                .compose(
                        outcome -> {
                            if (outcome instanceof Outcome.ContentMoved) {
                                if (n >= ATTEMPTS) {
                                    return Future.failedFuture(
                                            new Problem(
                                                    409,
                                                    "Conflict",
                                                    "memory "
                                                            + id
                                                            + " is being changed by other requests;"
                                                            + " retry"));
                                }
                                return attempt(scope, id, edit, ifMatch, n + 1);
                            }
                            boolean changed = outcome instanceof Outcome.Changed;
                            Future<Void> bumped =
                                    changed
                                            ? writes.bump(List.of(scope))
                                            : Future.succeededFuture();
                            return bumped.compose(v -> reads.get(scope, id))
                                    .map(m -> m.put("changed", changed));
                        });
    }

    /** The content the edit leaves, read before the lock, and its vector. */
    private record Seen(String content, float[] vector) {}

    private Future<Seen> vectorFor(Scope scope, Edit edit, JsonObject current) {
        String content = edit.content() != null ? edit.content() : current.getString("content");
        List<String> tags =
                edit.tags() != null
                        ? edit.tags()
                        : current.getJsonArray("tags", new JsonArray()).stream()
                                .map(String::valueOf)
                                .toList();
        // Embedded as the write plane embeds it: an excerpt by its own turn, or not at all.
        Optional<String> text =
                Excerpts.embeddedText(
                        tags, content, ModelSpec.scaleOf(embedder.version()).excerptVectors());
        if (text.isEmpty()) {
            return Future.succeededFuture(new Seen(current.getString("content"), new float[0]));
        }
        return embedder.embed(scope, List.of(text.get()))
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "embedding model unavailable: nothing was changed")))
                .map(v -> new Seen(current.getString("content"), v.get(0)));
    }

    private Outcome applyLocked(
            Connection c, Scope scope, UUID id, Edit edit, Integer ifMatch, Seen seen)
            throws SQLException {
        MemoryStoreWriter writer = MemoryStoreWriter.forEdits(writes.alias());
        Outcome outcome =
                Transactions.in(
                        c,
                        tx -> {
                            UserLocks.lock(tx, List.of(scope));
                            try (PreparedStatement st = tx.prepareStatement(LOCK_ROW)) {
                                st.setObject(1, id);
                                MemoryEvents.bindScope(st, 2, scope);
                                try (ResultSet rs = st.executeQuery()) {
                                    if (!rs.next()) {
                                        throw MemoryReads.missing(id);
                                    }
                                    return edit(tx, writer, rs, edit, ifMatch, seen);
                                }
                            }
                        });
        if (outcome instanceof Outcome.Changed changed) {
            writer.indexConfirmed(c, writes.index(), List.of(changed.change()));
        }
        return outcome;
    }

    private static Outcome edit(
            Connection tx,
            MemoryStoreWriter writer,
            ResultSet row,
            Edit edit,
            Integer ifMatch,
            Seen seen)
            throws SQLException {
        Memory current = MemoryRows.read(row, null);
        if (ifMatch != null && ifMatch != current.version()) {
            throw new Problem(
                    412,
                    "Precondition Failed",
                    "If-Match: memory "
                            + current.id()
                            + " is at version "
                            + current.version()
                            + ", not "
                            + ifMatch);
        }
        if (current.status() != io.engram.memory.MemoryStatus.ACTIVE) {
            throw new Problem(
                    409,
                    "Conflict",
                    "memory "
                            + current.id()
                            + " is "
                            + current.status().wireName()
                            + "; only a current memory can be changed"
                            + current.supersededBy()
                                    .map(by -> " (it was superseded by " + by + ")")
                                    .orElse(""));
        }
        if (edit.content() == null && !current.content().equals(seen.content())) {
            // Another edit changed the words after they were embedded: embed again.
            return new Outcome.ContentMoved();
        }
        String content = edit.content() != null ? edit.content() : current.content();
        List<String> tags = edit.tags() != null ? edit.tags() : current.tags();
        double importance = edit.importance() != null ? edit.importance() : current.importance();
        JsonObject metadata = MemoryJson.metadata(row.getString("metadata_text"));
        boolean sameMetadata = edit.metadata() == null || edit.metadata().equals(metadata);
        if (content.equals(current.content())
                && tags.equals(current.tags())
                && Math.abs(importance - current.importance()) < 1e-6
                && sameMetadata) {
            return new Outcome.Unchanged();
        }
        Memory updated =
                current.withContent(
                        content,
                        tags,
                        current.sourceTurnIds(),
                        importance,
                        current.validFrom(),
                        seen.vector());
        MemoryChange change =
                new MemoryChange.Updated(
                        updated, current.content(), "changed through the API", 1.0);
        writer.apply(tx, List.of(change));
        if (!sameMetadata) {
            try (PreparedStatement st =
                    tx.prepareStatement(
                            "update memories set metadata = ?::jsonb where id = ? and tenant_id = ?"
                                    + " and project_id = ? and environment = ? and user_id = ?")) {
                st.setString(1, edit.metadata().encode());
                st.setObject(2, current.id());
                MemoryEvents.bindScope(st, 3, current.scope());
                st.executeUpdate();
            }
        }
        return new Outcome.Changed(change);
    }

    public Future<Void> delete(Scope scope, UUID id) {
        return pool.withTransaction(
                        c ->
                                c.preparedQuery(UserLocks.LOCK.replace("?", "$1"))
                                        .execute(Tuple.of(UserLocks.key(scope)))
                                        .compose(
                                                x ->
                                                        c.preparedQuery(
                                                                        "delete from memories where id = $5 and"
                                                                                + IN_SCOPE
                                                                                + " returning id")
                                                                .execute(
                                                                        scopeArgs(scope)
                                                                                .addUUID(id)))
                                        .compose(
                                                rows -> {
                                                    if (rows.size() == 0) {
                                                        return Future.failedFuture(
                                                                MemoryReads.missing(id));
                                                    }
                                                    return c.preparedQuery(
                                                                    "insert into memory_events (memory_id, tenant_id, project_id, environment, user_id, kind)"
                                                                            + " values ($5, $1, $2, $3, $4, 'delete')")
                                                            .execute(scopeArgs(scope).addUUID(id))
                                                            .mapEmpty();
                                                }))
                .compose(v -> removeFromIndex(scope, id))
                .compose(v -> writes.bump(List.of(scope)));
    }

    private Future<Void> removeFromIndex(Scope scope, UUID id) {
        return writes.blocking(
                "deleted from the database but not yet from the index",
                c -> {
                    Bulk.send(
                            writes.index(),
                            List.of(
                                    MemoryDocuments.delete(
                                            writes.alias(), id.toString(), scope.routing())),
                            "true");
                    return null;
                });
    }

    /**
     * Brings back an archived memory exactly as it was archived; the id of a consolidated memory
     * brings back every original folded into it and removes the consolidated memory.
     */
    public Future<JsonObject> restore(Scope scope, UUID id) {
        return writes.blocking(
                        "nothing was restored",
                        c ->
                                Archives.restore(
                                        c,
                                        writes.index(),
                                        writes.alias(),
                                        scope,
                                        id,
                                        text ->
                                                embedder.embed(scope, List.of(text))
                                                        .toCompletionStage()
                                                        .toCompletableFuture()
                                                        .join()
                                                        .get(0)))
                .compose(restored -> restored(scope, id, restored));
    }

    private Future<JsonObject> restored(
            Scope scope, UUID id, Optional<Archives.Restored> restored) {
        if (restored.isEmpty()) {
            return Future.failedFuture(
                    Problem.notFound("no archived memory " + id + " for this user"));
        }
        JsonArray ids = new JsonArray();
        restored.get().memories().forEach(m -> ids.add(m.id().toString()));
        JsonObject out =
                new JsonObject()
                        .put("restored", ids)
                        .put("removed", restored.get().removed().map(UUID::toString).orElse(null));
        return writes.bump(List.of(scope)).map(out);
    }
}
