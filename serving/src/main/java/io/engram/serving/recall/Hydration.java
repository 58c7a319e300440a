package io.engram.serving.recall;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.memory.Scope;
import io.engram.serving.store.OpenSearchReads;
import io.engram.store.opensearch.MemoryQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.opensearch.client.opensearch.core.search.Hit;

/**
 * The candidates' rows: from the row cache when it holds the user at the current generation, else
 * from PostgreSQL (which confirms scope, status and metadata), else the index's copy. Only what one
 * of them confirms is returned.
 */
final class Hydration {

    private static final List<String> SOURCE_FIELDS =
            List.of(
                    "id",
                    "content",
                    "session_id",
                    "type",
                    "tier",
                    "status",
                    "tags",
                    "importance",
                    "valid_from",
                    "valid_to",
                    "created_at",
                    "embedding_version");

    private final Pool pool;
    private final OpenSearchReads openSearch;
    private final String alias;
    private final String embeddingVersion;
    private final Optional<RowCache> rows;
    private final RecallService.Limits limits;

    Hydration(
            Pool pool,
            OpenSearchReads openSearch,
            String alias,
            String embeddingVersion,
            Optional<RowCache> rows,
            RecallService.Limits limits) {
        this.pool = pool;
        this.openSearch = openSearch;
        this.alias = alias;
        this.embeddingVersion = embeddingVersion;
        this.rows = rows;
        this.limits = limits;
    }

    /** Sets each candidate's row and drops those nothing confirms. */
    Future<Void> hydrate(RecallCall call) {
        if (call.candidates.isEmpty()) {
            return Future.succeededFuture();
        }
        long budget = call.budget(limits.hydrateTimeoutMs());
        if (budget == 0) {
            // Nothing unconfirmed is returned (a chain's later hop keeps what an earlier one read).
            dropUnconfirmed(call);
            return Future.succeededFuture();
        }
        // Kept memories stand for PostgreSQL's only at the generation just read from Redis, and
        // only for requests whose filters they answer (not the metadata filter, not history).
        String generation =
                rows.isPresent()
                                && call.cached != null
                                && call.request.metadataFilter() == null
                                && !call.request.includeHistory()
                        ? call.cached.generation()
                        : null;
        if (generation != null && fromRowCache(call, generation)) {
            return Future.succeededFuture();
        }
        return fromPostgres(call, budget, generation);
    }

    private boolean fromRowCache(RecallCall call, String generation) {
        Map<String, MemoryRow> active = rows.get().get(call.request.scope(), generation);
        if (active == null) {
            return false;
        }
        call.userRows = active;
        call.candidates.values().forEach(c -> c.row = active.get(c.id));
        // Not among the user's active memories at this generation: PostgreSQL would not confirm
        // it either.
        call.candidates.values().removeIf(c -> c.row == null);
        return true;
    }

    private Future<Void> fromPostgres(RecallCall call, long budget, String generation) {
        Scope s = call.request.scope();
        // A chain's later hop reads only the candidates it added.
        UUID[] ids =
                call.candidates.values().stream()
                        .filter(c -> c.row == null)
                        .map(c -> UUID.fromString(c.id))
                        .toArray(UUID[]::new);
        if (ids.length == 0) {
            return Future.succeededFuture();
        }
        StringBuilder sql =
                new StringBuilder(
                        "select "
                                + MemoryRow.COLUMNS
                                + " from memories where id = any($1) and tenant_id = $2"
                                + " and project_id = $3 and environment = $4 and user_id = $5");
        if (!call.request.includeHistory()) {
            sql.append(" and status = 'active'");
        }
        Tuple args = Tuple.of(ids, s.tenantId(), s.projectId(), s.environment(), s.userId());
        if (call.request.metadataFilter() != null) {
            sql.append(" and metadata @> $6");
            args.addJsonObject(call.request.metadataFilter());
        }
        return pool.preparedQuery(sql.toString())
                .execute(args)
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        found -> {
                            for (Row r : found) {
                                MemoryRow row = MemoryRow.of(r);
                                call.candidates.get(row.id()).row = row;
                            }
                            // Only what the source of truth confirms (scope, status, metadata) is
                            // returned.
                            call.candidates.values().removeIf(c -> c.row == null);
                            if (generation != null) {
                                keepRows(s, generation);
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("postgres");
                            if (call.request.metadataFilter() != null) {
                                // The metadata filter cannot be checked without PostgreSQL.
                                dropUnconfirmed(call);
                                return Future.succeededFuture();
                            }
                            return copiesFromIndex(call);
                        });
    }

    /**
     * Reads the user's active memories into the row cache, off the response path (the answer that
     * asked for it does not wait): the user's next recalls at this generation read nothing.
     */
    private void keepRows(Scope s, String generation) {
        RowCache cache = rows.get();
        Long ticket = cache.startLoading(s);
        if (ticket == null) {
            return;
        }
        pool.preparedQuery(
                        "select "
                                + MemoryRow.COLUMNS
                                + " from memories where tenant_id = $1 and project_id = $2"
                                + " and environment = $3 and user_id = $4 and status = 'active'"
                                + " limit $5")
                .execute(
                        Tuple.of(
                                s.tenantId(),
                                s.projectId(),
                                s.environment(),
                                s.userId(),
                                cache.readLimit()))
                .timeout(limits.hydrateTimeoutMs(), TimeUnit.MILLISECONDS)
                .onComplete(
                        ar -> {
                            List<MemoryRow> active = null;
                            if (ar.succeeded()) {
                                active = new ArrayList<>();
                                for (Row r : ar.result()) {
                                    active.add(MemoryRow.of(r));
                                }
                            }
                            cache.loaded(s, ticket, generation, active);
                        });
    }

    /**
     * Without PostgreSQL: the index's copy of the candidates (the searches read none, to stay
     * cheap). A candidate the index does not return either is left out.
     */
    private Future<Void> copiesFromIndex(RecallCall call) {
        long budget = call.budget(limits.searchTimeoutMs());
        if (budget == 0) {
            dropUnconfirmed(call);
            return Future.succeededFuture();
        }
        MemoryQuery q = call.memoryQuery(embeddingVersion);
        List<String> ids = new ArrayList<>(call.candidates.keySet());
        return openSearch
                .call(
                        c ->
                                c.search(
                                        s ->
                                                s.index(alias)
                                                        .routing(q.routing())
                                                        .query(q.ids(ids))
                                                        .size(ids.size())
                                                        .source(
                                                                src ->
                                                                        src.filter(
                                                                                f ->
                                                                                        f.includes(
                                                                                                SOURCE_FIELDS))),
                                        JsonNode.class))
                .timeout(budget, TimeUnit.MILLISECONDS)
                .map(
                        response -> {
                            for (Hit<JsonNode> hit : response.hits().hits()) {
                                RecallCall.Candidate c =
                                        call.candidates.get(MemoryQuery.hitId(hit));
                                if (c != null) {
                                    c.source = hit.source();
                                }
                            }
                            return (Void) null;
                        })
                .recover(
                        err -> {
                            call.degraded.add("opensearch");
                            return Future.succeededFuture();
                        })
                .map(
                        v -> {
                            dropUnconfirmed(call);
                            return (Void) null;
                        });
    }

    /** Drops the candidates neither PostgreSQL nor the index has confirmed. */
    private static void dropUnconfirmed(RecallCall call) {
        call.candidates.values().removeIf(c -> c.row == null && c.source == null);
    }
}
