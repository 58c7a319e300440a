package io.engram.serving.recall;

import io.engram.cache.CacheKeys;
import io.engram.cache.RedisConnection;
import io.engram.memory.Scope;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the other serving instances what their in-process caches must drop, at once rather than
 * when it expires: what they keep of a forgotten user (its texts in the embedding cache, its
 * memories in the row cache) and, after an API key is revoked, every cached key lookup. The
 * instance that forgets or revokes drops its own and publishes a notice on {@link
 * CacheKeys#PEER_CHANNEL}; every instance listens on a Redis connection of its own and does the
 * same. A notice published while an instance was not listening would be missed, so an instance
 * drops what it keeps of every user and looks every key up again when it loses its connection and
 * again each time it (re)subscribes: a reconnect costs cache misses, never a forgotten text or a
 * revoked key kept past it (unless PostgreSQL cannot answer the lookup, when a key's last answer is
 * used, as always).
 */
public final class PeerNotices implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeerNotices.class);
    private static final long FIRST_RETRY_MS = 250;
    private static final long LAST_RETRY_MS = 10_000;

    private final Vertx vertx;
    private final RedisConnection redis;
    private final ToIntFunction<Predicate<Scope>> dropHeld;
    private final Runnable dropKeyLookups;
    private final Runnable recheckKeyLookups;
    private final long timeoutMs;
    private final String origin = UUID.randomUUID().toString();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong subscriptions = new AtomicLong();
    private volatile boolean listening;
    private volatile boolean closed;
    private volatile RedisConnection.Subscription subscription;
    private volatile long retryMs = FIRST_RETRY_MS;

    /**
     * {@code redis} publishes, and listens on a connection of its own, since a subscribed
     * connection takes no other command. {@code dropHeld} drops what this instance keeps of the
     * users that match (and says how much); {@code dropKeyLookups} empties this instance's cache of
     * API key lookups (a key was revoked); {@code recheckKeyLookups} makes it look every key up
     * again but keep the answers for when the database cannot answer (a revocation may have been
     * missed).
     */
    public PeerNotices(
            Vertx vertx,
            RedisConnection redis,
            ToIntFunction<Predicate<Scope>> dropHeld,
            Runnable dropKeyLookups,
            Runnable recheckKeyLookups,
            long timeoutMs) {
        this.vertx = vertx;
        this.redis = redis;
        this.dropHeld = dropHeld;
        this.dropKeyLookups = dropKeyLookups;
        this.recheckKeyLookups = recheckKeyLookups;
        this.timeoutMs = timeoutMs;
    }

    /** Starts listening; returns at once, and keeps reconnecting until {@link #close()}. */
    public void start() {
        subscribe();
    }

    /**
     * Drops what is kept of the user (in one project, or every project when {@code projectOrNull}
     * is null) here and tells the other instances. Never fails: an instance that does not hear of
     * it drops them when they expire.
     */
    public Future<Void> forget(
            String tenant, String environment, String userId, String projectOrNull) {
        dropHeld.applyAsInt(owners(tenant, environment, userId, projectOrNull));
        return publish(
                new JsonObject()
                        .put("kind", FORGET)
                        .put("tenant_id", tenant)
                        .put("environment", environment)
                        .put("user_id", userId)
                        .put("project_id", projectOrNull),
                "what they keep of the user expires instead");
    }

    /**
     * Drops the cached key lookups here and tells the other instances to, after a key was revoked.
     * Never fails: an instance that does not hear of it looks the key up again when its cached
     * answer expires.
     */
    public Future<Void> keyRevoked() {
        dropKeyLookups.run();
        return publish(
                new JsonObject().put("kind", KEY_REVOKED),
                "their cached key lookups expire instead");
    }

    static final String FORGET = "forget";
    static final String KEY_REVOKED = "key_revoked";

    private Future<Void> publish(JsonObject notice, String otherwise) {
        String message = notice.put("origin", origin).encode();
        return Future.fromCompletionStage(
                        redis.async(c -> c.publish(CacheKeys.PEER_CHANNEL, message)),
                        vertx.getOrCreateContext())
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .<Void>mapEmpty()
                .recover(
                        err -> {
                            LOG.warn(
                                    "could not tell the other serving instances of a {} ({}); {}",
                                    notice.getString("kind"),
                                    err.toString(),
                                    otherwise);
                            return Future.succeededFuture();
                        });
    }

    /** Whether this instance hears other instances' notices now. */
    public boolean listening() {
        return listening;
    }

    /** Notices heard from other instances. */
    public long received() {
        return received.get();
    }

    /** Subscriptions made, the first included: each dropped every cached text and key lookup. */
    public long subscriptions() {
        return subscriptions.get();
    }

    static Predicate<Scope> owners(
            String tenant, String environment, String userId, String projectOrNull) {
        return s ->
                s.tenantId().equals(tenant)
                        && s.environment().equals(environment)
                        && s.userId().equals(userId)
                        && (projectOrNull == null || s.projectId().equals(projectOrNull));
    }

    private void subscribe() {
        if (closed) {
            return;
        }
        AtomicBoolean lost = new AtomicBoolean();
        Future.fromCompletionStage(
                        redis.subscribe(
                                CacheKeys.PEER_CHANNEL,
                                message -> vertx.runOnContext(v -> onMessage(message)),
                                () -> vertx.runOnContext(v -> lost(lost, "connection lost"))),
                        vertx.getOrCreateContext())
                .timeout(timeoutMs * 5, TimeUnit.MILLISECONDS)
                .onSuccess(
                        s -> {
                            if (closed || lost.get()) {
                                s.close();
                                return;
                            }
                            subscription = s;
                            // What was cached before now may be what a missed notice named.
                            int dropped = dropEverything();
                            subscriptions.incrementAndGet();
                            listening = true;
                            retryMs = FIRST_RETRY_MS;
                            if (subscriptions.get() > 1) {
                                LOG.info(
                                        "listening to the other instances again; dropped {} cached"
                                                + " texts and rows, every key to be looked up again",
                                        dropped);
                            }
                        })
                .onFailure(
                        err -> {
                            if (lost.compareAndSet(false, true)) {
                                retryLater(err.toString());
                            }
                        });
    }

    /** The listening connection was lost: once per connection, a new one later. */
    private void lost(AtomicBoolean lost, String why) {
        if (!lost.compareAndSet(false, true)) {
            return;
        }
        RedisConnection.Subscription s = subscription;
        subscription = null;
        if (s != null) {
            s.close();
        }
        // Nothing cached so far can be told from what a notice may now miss.
        dropEverything();
        retryLater(why);
    }

    private void retryLater(String why) {
        if (closed) {
            return;
        }
        listening = false;
        LOG.warn("not listening to the other instances ({}); retrying in {} ms", why, retryMs);
        long delay = retryMs;
        retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
        vertx.setTimer(delay, id -> subscribe());
    }

    private void onMessage(String message) {
        JsonObject notice;
        try {
            notice = new JsonObject(message);
        } catch (RuntimeException e) {
            LOG.warn("ignored a malformed message on {}", CacheKeys.PEER_CHANNEL);
            return;
        }
        if (origin.equals(notice.getString("origin"))) {
            return;
        }
        if (KEY_REVOKED.equals(notice.getString("kind"))) {
            received.incrementAndGet();
            dropKeyLookups.run();
            return;
        }
        if (!FORGET.equals(notice.getString("kind"))) {
            LOG.warn("ignored a notice of unknown kind on {}", CacheKeys.PEER_CHANNEL);
            return;
        }
        String tenant = notice.getString("tenant_id");
        String environment = notice.getString("environment");
        String user = notice.getString("user_id");
        if (tenant == null || environment == null || user == null) {
            LOG.warn("ignored a forget notice without its scope on {}", CacheKeys.PEER_CHANNEL);
            return;
        }
        received.incrementAndGet();
        dropHeld.applyAsInt(owners(tenant, environment, user, notice.getString("project_id")));
    }

    private int dropEverything() {
        recheckKeyLookups.run();
        return dropHeld.applyAsInt(s -> true);
    }

    @Override
    public void close() {
        closed = true;
        listening = false;
        RedisConnection.Subscription s = subscription;
        subscription = null;
        if (s != null) {
            s.close();
        }
    }
}
