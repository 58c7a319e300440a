package io.engram.serving.recall;

import io.engram.cache.CacheKeys;
import io.engram.memory.Scope;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Search results in Redis for a few minutes, keyed by the request and the user's cache generation:
 * any write to the user's memories bumps the generation, so a cached answer never outlives it.
 */
public final class ResultCache {

    private final Redis redis;
    private final int ttlSeconds;
    private final long timeoutMs;

    public ResultCache(Redis redis, int ttlSeconds, long timeoutMs) {
        this.redis = redis;
        this.ttlSeconds = ttlSeconds;
        this.timeoutMs = timeoutMs;
    }

    /** The cache key for this request at the scope's current generation. */
    public Future<String> key(Scope scope, String canonicalRequest) {
        return redis.send(Request.cmd(Command.GET).arg(CacheKeys.generation(scope)))
                .timeout(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
                .map(
                        gen ->
                                "engram:res:"
                                        + sha256(
                                                (gen == null ? "0" : gen.toString())
                                                        + "\u0000"
                                                        + scope
                                                        + "\u0000"
                                                        + canonicalRequest));
    }

    public Future<JsonObject> get(String key) {
        return redis.send(Request.cmd(Command.GET).arg(key))
                .timeout(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
                .map((Response r) -> r == null ? null : new JsonObject(r.toString()));
    }

    public Future<Void> put(String key, JsonObject value) {
        return redis.send(
                        Request.cmd(Command.SET)
                                .arg(key)
                                .arg(value.encode())
                                .arg("EX")
                                .arg(ttlSeconds))
                .timeout(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
                .mapEmpty();
    }

    /** Invalidates every cached answer of the scope. */
    public Future<Void> bump(Scope scope) {
        return redis.send(Request.cmd(Command.INCR).arg(CacheKeys.generation(scope)))
                .timeout(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
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
