package io.engram.serving.recall;

import io.engram.memory.Scope;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records recalls off the response path: usage_count and last_accessed_at of each returned memory
 * and one recall event each, written in batches every {@code intervalMs}. Flushed on shutdown.
 */
public final class Bookkeeper {

    private static final Logger LOG = LoggerFactory.getLogger(Bookkeeper.class);

    private record Recall(Scope scope, List<UUID> ids) {}

    private final Vertx vertx;
    private final Pool pool;
    private final ConcurrentLinkedQueue<Recall> queue = new ConcurrentLinkedQueue<>();
    private final long timer;

    public Bookkeeper(Vertx vertx, Pool pool, long intervalMs) {
        this.vertx = vertx;
        this.pool = pool;
        this.timer = vertx.setPeriodic(intervalMs, t -> flush());
    }

    public void recalled(Scope scope, List<UUID> ids) {
        if (!ids.isEmpty()) {
            queue.add(new Recall(scope, ids));
        }
    }

    /** Writes what is queued; never fails the caller. */
    public Future<Void> flush() {
        Map<UUID, Integer> counts = new HashMap<>();
        List<UUID> eventIds = new ArrayList<>();
        List<String> tenants = new ArrayList<>();
        List<String> projects = new ArrayList<>();
        List<String> environments = new ArrayList<>();
        List<String> users = new ArrayList<>();
        Recall r;
        while ((r = queue.poll()) != null) {
            for (UUID id : r.ids()) {
                counts.merge(id, 1, Integer::sum);
                eventIds.add(id);
                tenants.add(r.scope().tenantId());
                projects.add(r.scope().projectId());
                environments.add(r.scope().environment());
                users.add(r.scope().userId());
            }
        }
        if (counts.isEmpty()) {
            return Future.succeededFuture();
        }
        UUID[] ids = counts.keySet().toArray(new UUID[0]);
        // One lock order for every flush: two flushes that overlap under load cannot deadlock.
        java.util.Arrays.sort(ids);
        Integer[] n = new Integer[ids.length];
        for (int i = 0; i < ids.length; i++) {
            n[i] = counts.get(ids[i]);
        }
        // Two statements a flush, whatever the number of users: one round trip and one commit each.
        List<Future<?>> writes = new ArrayList<>();
        writes.add(
                pool.preparedQuery(
                                "update memories m set usage_count = m.usage_count + v.c, last_accessed_at = now()"
                                        + " from (select unnest($1::uuid[]) as id, unnest($2::int[]) as c) v where m.id = v.id")
                        .execute(Tuple.tuple().addArrayOfUUID(ids).addArrayOfInteger(n)));
        writes.add(
                pool.preparedQuery(
                                // Only for memories that still exist: a user forgotten since the
                                // recall must not get events back.
                                "insert into memory_events (memory_id, tenant_id, project_id, environment, user_id, kind)"
                                        + " select v.id, v.t, v.p, v.e, v.u, 'recall'"
                                        + " from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) as v(id, t, p, e, u)"
                                        + " where exists (select 1 from memories m where m.id = v.id)")
                        .execute(
                                Tuple.tuple()
                                        .addArrayOfUUID(eventIds.toArray(new UUID[0]))
                                        .addArrayOfString(tenants.toArray(new String[0]))
                                        .addArrayOfString(projects.toArray(new String[0]))
                                        .addArrayOfString(environments.toArray(new String[0]))
                                        .addArrayOfString(users.toArray(new String[0]))));
        return Future.join(writes)
                .<Void>mapEmpty()
                .onFailure(
                        err ->
                                LOG.warn(
                                        "recall bookkeeping failed for {} memories: {}",
                                        ids.length,
                                        err.toString()))
                .recover(err -> Future.succeededFuture());
    }

    public Future<Void> close() {
        vertx.cancelTimer(timer);
        return flush();
    }
}
