package io.engram.serving.auth;

import io.engram.auth.ApiKeys;
import io.engram.serving.http.Problem;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a bearer API key to its principal. Keys are looked up by hash; answers (found or not)
 * are cached for {@code cacheMillis}, so a revoked key stops working within that time.
 */
public final class ApiKeyAuthenticator {

    private record Cached(Principal principal, long expiresAt) {}

    private final Pool pool;
    private final long cacheMillis;
    private final int defaultRate;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public ApiKeyAuthenticator(Pool pool, long cacheMillis, int defaultRate) {
        this.pool = pool;
        this.cacheMillis = cacheMillis;
        this.defaultRate = defaultRate;
    }

    public Future<Principal> authenticate(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return Future.failedFuture(
                    Problem.unauthorized("Authorization: a 'Bearer <api key>' header is required"));
        }
        String key = authorization.substring("Bearer ".length()).trim();
        if (!ApiKeys.isWellFormed(key)) {
            return Future.failedFuture(Problem.unauthorized("Authorization: not a valid API key"));
        }
        String hash = ApiKeys.hash(key);
        Cached cached = cache.get(hash);
        long now = System.currentTimeMillis();
        if (cached != null && cached.expiresAt() > now) {
            return cached.principal() == null
                    ? Future.failedFuture(
                            Problem.unauthorized("Authorization: unknown or revoked API key"))
                    : Future.succeededFuture(cached.principal());
        }
        return pool.preparedQuery(
                        "select id, tenant_id, project_id, environment, scopes, rate_limit_per_s from api_keys"
                                + " where key_hash = $1 and revoked_at is null")
                .execute(Tuple.of(hash))
                .compose(
                        rows -> {
                            Principal p =
                                    rows.size() == 0 ? null : principal(rows.iterator().next());
                            cache.put(hash, new Cached(p, now + cacheMillis));
                            return p == null
                                    ? Future.failedFuture(
                                            Problem.unauthorized(
                                                    "Authorization: unknown or revoked API key"))
                                    : Future.succeededFuture(p);
                        });
    }

    /** Forgets cached answers (after a key is revoked on this instance). */
    public void invalidate() {
        cache.clear();
    }

    private Principal principal(Row r) {
        Set<String> scopes = new HashSet<>();
        for (String s : r.getArrayOfStrings("scopes")) {
            scopes.add(s);
        }
        Integer rate = r.getInteger("rate_limit_per_s");
        return new Principal(
                r.getUUID("id").toString(),
                r.getString("tenant_id"),
                r.getString("project_id"),
                r.getString("environment"),
                Set.copyOf(scopes),
                rate == null ? defaultRate : rate);
    }
}
