package io.engram.serving.memories;

import io.engram.memory.Scope;
import io.engram.serving.http.Problem;
import io.engram.serving.recall.PeerNotices;
import io.engram.serving.store.OpenSearchReads;
import io.engram.store.UserLocks;
import io.engram.store.opensearch.MemoryQuery;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch._types.Conflicts;
import org.opensearch.client.opensearch._types.Refresh;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code DELETE /v1/memories?user_id=}: forgets everything of a user, in one project or in every
 * project of the key's tenant and environment — rows, history, archives, index documents, cached
 * answers, and the texts the embedding caches of every serving instance keep. Irreversible; audited
 * without content.
 *
 * <p>The deletes run under the user's lock ({@link UserLocks}), which every writer of the user's
 * memories takes too: a write that committed before is deleted here, a write that waited sees the
 * audit row and drops what was decided from turns sent before the forget. The index is refreshed
 * before its documents are deleted, so none written just before is missed, and its delete runs
 * while the lock is held: a write that waited for the forget commits and indexes after it, so the
 * delete-by-query can never remove the document of a memory stored after the forget. When the index
 * does not take the delete, the transaction rolls back and the forget answers 503: nothing is half
 * forgotten.
 */
public final class Forgetting {

    private static final Logger LOG = LoggerFactory.getLogger(Forgetting.class);

    /** Who is forgotten where; {@code project} null: every project. */
    public record Request(
            String tenant, String environment, String user, String project, String keyId) {

        String where() {
            return " tenant_id = $1 and environment = $2 and user_id = $3"
                    + (project == null ? "" : " and project_id = $4");
        }

        Tuple args() {
            Tuple t = Tuple.of(tenant, environment, user);
            return project == null ? t : t.addString(project);
        }
    }

    private record Deleted(List<String> projects, int count) {}

    private final Pool pool;
    private final OpenSearchReads openSearch;
    private final MemoryWrites writes;
    private final PeerNotices peers;

    Forgetting(Pool pool, OpenSearchReads openSearch, MemoryWrites writes, PeerNotices peers) {
        this.pool = pool;
        this.openSearch = openSearch;
        this.writes = writes;
        this.peers = peers;
    }

    public Future<JsonObject> forget(Request r) {
        return pool.withTransaction(
                        c ->
                                deleteRows(c, r)
                                        .compose(
                                                deleted ->
                                                        deleteDocuments(r)
                                                                .map(n -> answer(r, deleted, n))))
                .compose(answer -> forgetKept(r, answer));
    }

    private Future<Deleted> deleteRows(SqlConnection c, Request r) {
        return c.preparedQuery(UserLocks.LOCK.replace("?", "$1"))
                .execute(Tuple.of(UserLocks.key(r.tenant(), r.environment(), r.user())))
                .compose(
                        x ->
                                c.preparedQuery(
                                                "delete from memories where"
                                                        + r.where()
                                                        + " returning project_id")
                                        .execute(r.args()))
                .compose(
                        memories ->
                                c.preparedQuery("delete from memory_events where" + r.where())
                                        .execute(r.args())
                                        .compose(
                                                x ->
                                                        c.preparedQuery(
                                                                        "delete from archives where"
                                                                                + r.where())
                                                                .execute(r.args()))
                                        .compose(
                                                x ->
                                                        c.preparedQuery(
                                                                        "delete from turns_seen where"
                                                                                + r.where())
                                                                .execute(r.args()))
                                        .compose(x -> audit(c, r, memories.rowCount()))
                                        .map(x -> projectsOf(memories)));
    }

    private static Future<RowSet<Row>> audit(SqlConnection c, Request r, int deleted) {
        return c.preparedQuery(
                        "insert into forget_audit (tenant_id, project_id, environment, user_id,"
                                + " requested_by, memories_deleted) values ($1, $2, $3, $4, $5, $6)")
                .execute(
                        Tuple.of(
                                r.tenant(),
                                r.project(),
                                r.environment(),
                                r.user(),
                                UUID.fromString(r.keyId()),
                                deleted));
    }

    private static Deleted projectsOf(RowSet<Row> rows) {
        Set<String> projects = new LinkedHashSet<>();
        rows.forEach(row -> projects.add(row.getString("project_id")));
        return new Deleted(new ArrayList<>(projects), rows.rowCount());
    }

    /** Deletes every document of the user (any status), after a refresh; returns how many. */
    private Future<Long> deleteDocuments(Request r) {
        // The query needs a project to be built; an every-project forget drops that filter.
        Scope scope =
                new Scope(
                        r.tenant(),
                        r.project() == null ? "default" : r.project(),
                        r.environment(),
                        r.user());
        MemoryQuery q = MemoryQuery.forScope(scope).includeHistory(true);
        if (r.project() == null) {
            q.inEveryProject();
        }
        String alias = writes.alias();
        return openSearch
                .call(c -> c.indices().refresh(r2 -> r2.index(alias)))
                .compose(
                        refreshed ->
                                openSearch.call(
                                        c ->
                                                c.deleteByQuery(
                                                        d ->
                                                                d.index(alias)
                                                                        .routing(q.routing())
                                                                        .query(q.all())
                                                                        .refresh(Refresh.True)
                                                                        .conflicts(
                                                                                Conflicts
                                                                                        .Proceed))))
                .recover(
                        err -> {
                            LOG.warn("forgetting in the index failed: {}", err.toString());
                            return Future.failedFuture(
                                    Problem.unavailable(
                                            "the index did not take the forget; nothing was"
                                                    + " forgotten, retry the request"));
                        })
                .map(resp -> resp.deleted() == null ? 0L : resp.deleted());
    }

    private static JsonObject answer(Request r, Deleted deleted, long documents) {
        return new JsonObject()
                .put("user_id", r.user())
                .put("memories_deleted", deleted.count())
                .put("projects", new JsonArray(deleted.projects()))
                .put("index_documents_deleted", documents);
    }

    /**
     * The texts embedded for the user, its queries included, here and in the other serving
     * instances, and the cached answers of every project the forget deleted memories in.
     */
    private Future<JsonObject> forgetKept(Request r, JsonObject answer) {
        List<Scope> scopes = new ArrayList<>();
        answer.getJsonArray("projects")
                .forEach(
                        p ->
                                scopes.add(
                                        new Scope(
                                                r.tenant(),
                                                (String) p,
                                                r.environment(),
                                                r.user())));
        return peers.forget(r.tenant(), r.environment(), r.user(), r.project())
                .compose(v -> writes.forgetCached(scopes))
                .map(answer);
    }
}
