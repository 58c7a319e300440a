package io.engram.serving.recall;

import io.engram.cache.CacheKeys;
import io.engram.memory.Scope;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Search results in Redis for a few minutes, each stored with the user's cache generation it was
 * computed at: any write to the user's memories bumps the generation, so a cached answer never
 * outlives it. A lookup reads the generation and the answer in one round trip. Each scope keeps the
 * keys of its answers in a set, so that forgetting the scope deletes them, content and all.
 */
public final class ResultCache {

    /**
     * A lookup: where the answer is (or will be) stored, the scope's set of such keys, the
     * generation read, and the hit.
     */
    public record Lookup(String key, String index, String generation, JsonObject hit) {}

    private final Redis redis;
    private final int ttlSeconds;
    private final long timeoutMs;

    public ResultCache(Redis redis, int ttlSeconds, long timeoutMs) {
        this.redis = redis;
        this.ttlSeconds = ttlSeconds;
        this.timeoutMs = timeoutMs;
    }

    /** The cached answer to this request at the scope's current generation, if there is one. */
    public Future<Lookup> lookup(Scope scope, String canonicalRequest) {
        String key = CacheKeys.resultPrefix(scope) + sha256(canonicalRequest);
        return redis.send(Request.cmd(Command.MGET).arg(CacheKeys.generation(scope)).arg(key))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .map(
                        r -> {
                            String generation = r.get(0) == null ? "0" : r.get(0).toString();
                            String stored = r.get(1) == null ? null : r.get(1).toString();
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
        return redis.batch(
                        List.of(
                                Request.cmd(Command.SET)
                                        .arg(lookup.key())
                                        .arg(lookup.generation() + "\n" + answer.encode())
                                        .arg("EX")
                                        .arg(ttlSeconds),
                                Request.cmd(Command.SADD).arg(lookup.index()).arg(lookup.key()),
                                Request.cmd(Command.EXPIRE).arg(lookup.index()).arg(ttlSeconds)))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .mapEmpty();
    }

    /**
     * Invalidates every cached answer of the scope, and tells the extraction job the user's
     * memories were changed by someone else (it reloads them).
     */
    public Future<Void> bump(Scope scope) {
        return redis.batch(
                        List.of(
                                Request.cmd(Command.INCR).arg(CacheKeys.generation(scope)),
                                Request.cmd(Command.INCR).arg(CacheKeys.otherWrites(scope))))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .mapEmpty();
    }

    /**
     * Invalidates the scope's cached answers and deletes them: they hold memory content, which a
     * forgotten user must not leave behind even unreadable.
     */
    public Future<Void> forget(Scope scope) {
        String index = CacheKeys.resultIndex(scope);
        return redis.send(Request.cmd(Command.INCR).arg(CacheKeys.generation(scope)))
                .compose(v -> redis.send(Request.cmd(Command.SMEMBERS).arg(index)))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .compose(
                        members -> {
                            // the extraction job hears of a forget by its own notice
                            Request unlink =
                                    Request.cmd(Command.UNLINK)
                                            .arg(index)
                                            .arg(CacheKeys.otherWrites(scope));
                            members.forEach(m -> unlink.arg(m.toString()));
                            return redis.send(unlink).timeout(timeoutMs, TimeUnit.MILLISECONDS);
                        })
                .mapEmpty();
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
