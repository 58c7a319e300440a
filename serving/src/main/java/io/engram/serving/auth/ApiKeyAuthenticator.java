package io.engram.serving.auth;

import io.engram.auth.ApiKeys;
import io.engram.serving.http.Problem;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a bearer API key to its principal. Keys are looked up by hash; answers (found or not)
 * are reused for {@code cacheMillis}, so a revoked key stops working within that time. Callers that
 * find the same key expired at once share one lookup. While PostgreSQL cannot answer a lookup (it
 * fails or takes longer than {@link #LOOKUP_TIMEOUT_MS}, unless constructed with another), a key's
 * last answer keeps being used for up to {@link #STALE_MILLIS} after it was looked up: a failing
 * database degrades recall, it does not lock every client out once the cache expires. A key with no
 * usable answer gets 503. At most {@link #MAX_KEYS} answers of real keys and {@link
 * #MAX_UNKNOWN_KEYS} of unknown ones are kept ({@link KeyAnswers}): made-up keys can neither grow
 * the cache without bound nor push the real keys' answers out.
 */
public final class ApiKeyAuthenticator {

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeyAuthenticator.class);

    private static final long STALE_MILLIS = 15 * 60_000;
    private static final long LOOKUP_TIMEOUT_MS = 1_000;
    private static final int MAX_KEYS = 100_000;
    private static final int MAX_UNKNOWN_KEYS = 10_000;

    private final Pool pool;
    private final long cacheMillis;
    private final int defaultRate;
    private final long lookupTimeoutMs;
    private final KeyAnswers cache = new KeyAnswers(MAX_KEYS, MAX_UNKNOWN_KEYS);
    private final Map<String, Future<Optional<Principal>>> lookups = new ConcurrentHashMap<>();
    // Raised by invalidate(): a lookup that started before must not put its answer back.
    private final AtomicLong generation = new AtomicLong();
    // Set by recheck(): answers looked up before are looked up again, kept only as a fallback.
    private volatile long freshAfter;

    public ApiKeyAuthenticator(Pool pool, long cacheMillis, int defaultRate) {
        this(pool, cacheMillis, defaultRate, LOOKUP_TIMEOUT_MS);
    }

    /** With another time a lookup may take before the key's last answer is used. */
    public ApiKeyAuthenticator(Pool pool, long cacheMillis, int defaultRate, long lookupTimeoutMs) {
        this.pool = pool;
        this.cacheMillis = cacheMillis;
        this.defaultRate = defaultRate;
        this.lookupTimeoutMs = lookupTimeoutMs;
    }

    public Future<Principal> authenticate(String authorization) {
        // The scheme is case-insensitive (RFC 9110 11.1).
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Future.failedFuture(
                    Problem.unauthorized("Authorization: a 'Bearer <api key>' header is required"));
        }
        String key = authorization.substring("Bearer ".length()).trim();
        if (!ApiKeys.isWellFormed(key)) {
            return Future.failedFuture(Problem.unauthorized("Authorization: not a valid API key"));
        }
        String hash = ApiKeys.hash(key);
        KeyAnswers.Answer cached = cache.get(hash);
        if (cached != null
                && cached.lookedUpAt() >= freshAfter
                && System.currentTimeMillis() - cached.lookedUpAt() < cacheMillis) {
            return answer(cached.principal());
        }
        return lookup(hash)
                .transform(
                        ar -> {
                            if (ar.succeeded()) {
                                return answer(ar.result().orElse(null));
                            }
                            if (cached != null
                                    && System.currentTimeMillis() - cached.lookedUpAt()
                                            < STALE_MILLIS) {
                                LOG.debug("key lookup failed, last answer used: {}", ar.cause());
                                return answer(cached.principal());
                            }
                            LOG.warn("key lookup failed: {}", ar.cause().toString());
                            return Future.failedFuture(
                                    Problem.unavailable(
                                            "Authorization: the key store cannot be reached; retry"
                                                    + " later"));
                        });
    }

    /**
     * One lookup of {@code hash} at a time, shared by every caller that needs it meanwhile. Each
     * caller gets the answer on its own context: a request that joined another's lookup goes on on
     * its own event loop, not on the one that ran the query.
     */
    private Future<Optional<Principal>> lookup(String hash) {
        Context caller = Vertx.currentContext();
        Future<Optional<Principal>> shared = sharedLookup(hash);
        if (caller == null) {
            return shared;
        }
        Promise<Optional<Principal>> answer = Promise.promise();
        shared.onComplete(ar -> caller.runOnContext(v -> answer.handle(ar)));
        return answer.future();
    }

    private Future<Optional<Principal>> sharedLookup(String hash) {
        Promise<Optional<Principal>> promise = Promise.promise();
        Future<Optional<Principal>> running = lookups.putIfAbsent(hash, promise.future());
        if (running != null) {
            return running;
        }
        long startedAt = System.currentTimeMillis();
        long startedIn = generation.get();
        pool.preparedQuery(
                        "select id, tenant_id, project_id, environment, scopes, rate_limit_per_s from api_keys"
                                + " where key_hash = $1 and revoked_at is null")
                .execute(Tuple.of(hash))
                .timeout(lookupTimeoutMs, TimeUnit.MILLISECONDS)
                .map(
                        rows -> {
                            Principal p =
                                    rows.size() == 0 ? null : principal(rows.iterator().next());
                            if (generation.get() == startedIn) {
                                cache.remember(hash, new KeyAnswers.Answer(p, startedAt));
                            }
                            return Optional.ofNullable(p);
                        })
                .onComplete(
                        ar -> {
                            lookups.remove(hash, promise.future());
                            promise.handle(ar);
                        });
        return promise.future();
    }

    private static Future<Principal> answer(Principal principal) {
        return principal == null
                ? Future.failedFuture(
                        Problem.unauthorized("Authorization: unknown or revoked API key"))
                : Future.succeededFuture(principal);
    }

    /** Forgets cached answers (after a key is revoked). */
    public void invalidate() {
        generation.incrementAndGet();
        cache.clear();
    }

    /**
     * Looks every key up again on its next use, but keeps the answers for when PostgreSQL cannot
     * answer (after this instance may have missed a revocation).
     */
    public void recheck() {
        freshAfter = System.currentTimeMillis() + 1;
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
