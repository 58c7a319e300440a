package io.engram.serving.recall;

import io.engram.cache.CacheKeys;
import io.engram.cache.RedisConnection;
import io.engram.memory.Scope;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Search results in Redis for a few minutes, each stored with the user's cache generation it was
 * computed at: any write to the user's memories bumps the generation, so a cached answer never
 * outlives it. A lookup reads the generation and the answer in one round trip. Each scope keeps the
 * keys of its answers in a set, so that forgetting the scope deletes them, content and all.
 *
 * <p>An invalidation Redis does not take (unreachable, refusing writes) is kept and sent again by
 * {@link #retryPending} until it is taken; meanwhile {@link #current} says the scope's cached
 * answers and generation cannot be trusted, so this instance neither reads nor writes them. At most
 * {@link #MAX_PENDING} scopes wait; beyond that an invalidation is dropped (counted), and the
 * scope's cached answers live until their expiry.
 */
public final class ResultCache {

    /**
     * A lookup: where the answer is (or will be) stored, the scope's set of such keys, the
     * generation read, and the hit.
     */
    public record Lookup(String key, String index, String generation, JsonObject hit) {}

    /** How many scopes' invalidations may wait for Redis. */
    static final int MAX_PENDING = 100_000;

    /** An invalidation waiting for Redis; a later failure for the scope replaces it. */
    private record Pending(boolean forget, long seq) {}

    private final Vertx vertx;
    private final RedisConnection redis;
    private final int ttlSeconds;
    private final long timeoutMs;
    private final Map<Scope, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean retrying = new AtomicBoolean();

    public ResultCache(Vertx vertx, RedisConnection redis, int ttlSeconds, long timeoutMs) {
        this.vertx = vertx;
        this.redis = redis;
        this.ttlSeconds = ttlSeconds;
        this.timeoutMs = timeoutMs;
    }

    /** The cached answer to this request at the scope's current generation, if there is one. */
    public Future<Lookup> lookup(Scope scope, String canonicalRequest) {
        String key = CacheKeys.resultPrefix(scope) + sha256(canonicalRequest);
        return send(c -> c.mget(CacheKeys.generation(scope), key))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .map(
                        r -> {
                            String generation = value(r.get(0), "0");
                            String stored = value(r.get(1), null);
                            int newline = stored == null ? -1 : stored.indexOf('\n');
                            JsonObject hit =
                                    newline > 0 && stored.substring(0, newline).equals(generation)
                                            ? new JsonObject(stored.substring(newline + 1))
                                            : null;
                            return new Lookup(key, CacheKeys.resultIndex(scope), generation, hit);
                        });
    }

    /** Stores an answer computed after {@code lookup}, valid at the generation it read. */
    public Future<Void> put(Lookup lookup, JsonObject answer) {
        String stored = lookup.generation() + "\n" + answer.encode();
        return send(c ->
                        all(
                                c.set(lookup.key(), stored, SetArgs.Builder.ex(ttlSeconds)),
                                c.sadd(lookup.index(), lookup.key()),
                                c.expire(lookup.index(), ttlSeconds)))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .mapEmpty();
    }

    /**
     * Invalidates every cached answer of the scope, and tells the extraction job the user's
     * memories were changed by someone else (it reloads them). If Redis does not take it, it is
     * kept and sent again (see the class).
     */
    public Future<Void> bump(Scope scope) {
        return kept(scope, false, sendBump(scope));
    }

    private Future<Void> sendBump(Scope scope) {
        return send(c ->
                        all(
                                c.incr(CacheKeys.generation(scope)),
                                c.incr(CacheKeys.otherWrites(scope))))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .mapEmpty();
    }

    /**
     * Invalidates the scope's cached answers and deletes them: they hold memory content, which a
     * forgotten user must not leave behind even unreadable. If Redis does not take it, it is kept
     * and sent again (see the class).
     */
    public Future<Void> forget(Scope scope) {
        return kept(scope, true, sendForget(scope));
    }

    private Future<Void> sendForget(Scope scope) {
        String index = CacheKeys.resultIndex(scope);
        return send(c -> c.incr(CacheKeys.generation(scope)))
                .compose(v -> send(c -> c.smembers(index)))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .compose(
                        members -> {
                            // the extraction job hears of a forget by its own notice
                            List<String> keys = new ArrayList<>(members.size() + 2);
                            keys.add(index);
                            keys.add(CacheKeys.otherWrites(scope));
                            keys.addAll(members);
                            return send(c -> c.unlink(keys.toArray(String[]::new)))
                                    .timeout(timeoutMs, TimeUnit.MILLISECONDS);
                        })
                .mapEmpty();
    }

    /** Keeps the scope's invalidation for {@link #retryPending} if Redis did not take it. */
    private Future<Void> kept(Scope scope, boolean forget, Future<Void> sent) {
        return sent.onFailure(
                err -> {
                    long n = seq.incrementAndGet();
                    if (pending.size() >= MAX_PENDING && !pending.containsKey(scope)) {
                        dropped.incrementAndGet();
                        return;
                    }
                    pending.merge(
                            scope,
                            new Pending(forget, n),
                            (old, now) -> new Pending(old.forget() || now.forget(), now.seq()));
                });
    }

    /**
     * Whether the scope's generation and cached answers in Redis can be used: no invalidation of it
     * is waiting to be sent again.
     */
    public boolean current(Scope scope) {
        return pending.isEmpty() || !pending.containsKey(scope);
    }

    /**
     * Sends the waiting invalidations again: one first, and the others once Redis has taken it, so
     * that an unreachable Redis gets one attempt per call. One that fails again stays.
     */
    public void retryPending() {
        Iterator<Map.Entry<Scope, Pending>> it = pending.entrySet().iterator();
        if (!it.hasNext() || !retrying.compareAndSet(false, true)) {
            return;
        }
        Map.Entry<Scope, Pending> first = it.next();
        resend(first.getKey(), first.getValue())
                .onComplete(
                        ar -> {
                            if (ar.succeeded()) {
                                List<Future<Void>> rest = new ArrayList<>();
                                pending.forEach((scope, p) -> rest.add(resend(scope, p)));
                                Future.join(rest).onComplete(done -> retrying.set(false));
                            } else {
                                retrying.set(false);
                            }
                        });
    }

    private Future<Void> resend(Scope scope, Pending p) {
        // Removed only if no newer failure replaced it meanwhile.
        return (p.forget() ? sendForget(scope) : sendBump(scope))
                .onSuccess(v -> pending.remove(scope, p));
    }

    /** How many scopes' invalidations wait for Redis. */
    public int pending() {
        return pending.size();
    }

    /** Invalidations dropped because {@link #MAX_PENDING} scopes were waiting. */
    public long dropped() {
        return dropped.get();
    }

    /** A command's answer on the caller's context (Lettuce answers on its own threads). */
    private <T> Future<T> send(
            java.util.function.Function<RedisAsyncCommands<String, String>, CompletionStage<T>>
                    command) {
        return Future.fromCompletionStage(redis.async(command), vertx.getOrCreateContext());
    }

    /** Commands pipelined on one connection, done when all are. */
    private static CompletionStage<Void> all(CompletionStage<?>... commands) {
        CompletableFuture<?>[] each = new CompletableFuture<?>[commands.length];
        for (int i = 0; i < commands.length; i++) {
            each[i] = commands[i].toCompletableFuture();
        }
        return CompletableFuture.allOf(each);
    }

    private static String value(KeyValue<String, String> kv, String otherwise) {
        return kv != null && kv.hasValue() ? kv.getValue() : otherwise;
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
