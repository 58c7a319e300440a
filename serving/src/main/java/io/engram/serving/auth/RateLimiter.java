package io.engram.serving.auth;

import io.engram.serving.http.Problem;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per API key on this instance: {@code rate} requests a second with bursts up to one
 * second's worth. Over the limit: 429 with Retry-After.
 */
public final class RateLimiter {

    private static final class Bucket {
        double tokens;
        long last;

        Bucket(double tokens, long last) {
            this.tokens = tokens;
            this.last = last;
        }
    }

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public void acquire(Principal p) {
        long now = System.nanoTime();
        Bucket b = buckets.computeIfAbsent(p.keyId(), k -> new Bucket(p.ratePerSecond(), now));
        synchronized (b) {
            double rate = p.ratePerSecond();
            b.tokens = Math.min(rate, b.tokens + (now - b.last) / 1e9 * rate);
            b.last = now;
            if (b.tokens < 1) {
                long retry = (long) Math.ceil((1 - b.tokens) / rate);
                throw new Problem(
                        429,
                        "Too Many Requests",
                        "rate limit of " + p.ratePerSecond() + " requests/s exceeded",
                        Math.max(1, retry));
            }
            b.tokens -= 1;
        }
    }
}
