package io.engram.cache;

import io.engram.config.EngramConfig;
import io.engram.tls.PemTrust;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Redis client of both planes (Lettuce): TLS for rediss:// with the server's name checked
 * against the CAs of the configured truststore (PEM; empty: the JVM's), AUTH or ACL with the
 * configured user and password, the URL's database.
 *
 * <p>One connection, opened on first use and not before: a service or job starts while Redis is
 * down and degrades instead. Once open it reconnects by itself; while it is disconnected commands
 * fail at once instead of queueing, and every command fails after {@code timeout}. A connection
 * attempt that failed is not repeated for {@link #RETRY_AFTER}: while Redis is down, callers fail
 * fast instead of each waiting for a connect timeout.
 */
public final class RedisConnection implements AutoCloseable {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final ClientResources resources;
    private final RedisClient client;
    private final RedisURI uri;
    private final Duration timeout;
    private CompletableFuture<StatefulRedisConnection<String, String>> connection;
    private long failedAtNanos;
    private boolean closed;

    private RedisConnection(EngramConfig.Redis config, Duration timeout) {
        this.timeout = timeout;
        this.uri = RedisURI.create(config.url());
        if (!config.password().isEmpty()) {
            if (config.username().isEmpty()) {
                uri.setAuthentication(config.password());
            } else {
                uri.setAuthentication(config.username(), config.password());
            }
        }
        uri.setTimeout(timeout);
        ClientOptions.Builder options =
                ClientOptions.builder()
                        .autoReconnect(true)
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(TimeoutOptions.enabled(timeout))
                        .socketOptions(SocketOptions.builder().connectTimeout(timeout).build());
        if (config.tls()) {
            uri.setSsl(true);
            uri.setVerifyPeer(SslVerifyMode.FULL);
            SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
            if (!config.tlsTruststore().isEmpty()) {
                ssl.trustManager(PemTrust.trustManagers(config.tlsTruststore()));
            }
            options.sslOptions(ssl.build());
        }
        // Two I/O threads are plenty for one connection (and a subscription).
        this.resources =
                DefaultClientResources.builder()
                        .ioThreadPoolSize(2)
                        .computationThreadPoolSize(1)
                        .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(options.build());
    }

    /** A client of the configured server, or null when none is configured. */
    public static RedisConnection open(EngramConfig.Redis config, Duration timeout) {
        return config.configured() ? new RedisConnection(config, timeout) : null;
    }

    /** The connection, opening it if it is not (or failed more than a second ago). */
    public synchronized CompletableFuture<StatefulRedisConnection<String, String>> connection() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("closed"));
        }
        if (connection == null
                || (connection.isCompletedExceptionally()
                        && System.nanoTime() - failedAtNanos > RETRY_AFTER.toNanos())) {
            CompletableFuture<StatefulRedisConnection<String, String>> opening =
                    client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
            connection = opening;
            opening.whenComplete(
                    (c, err) -> {
                        if (err != null) {
                            synchronized (this) {
                                failedAtNanos = System.nanoTime();
                            }
                        }
                    });
        }
        return connection;
    }

    /** Runs a command on the connection: it fails with the connection when there is none. */
    public <T> CompletionStage<T> async(
            Function<RedisAsyncCommands<String, String>, CompletionStage<T>> command) {
        return connection().thenCompose(c -> command.apply(c.async()));
    }

    /** The blocking commands, once connected (within the timeout); for the jobs. */
    public RedisCommands<String, String> sync() {
        return connected().sync();
    }

    /** The asynchronous commands, once connected (within the timeout): to pipeline from a job. */
    public RedisAsyncCommands<String, String> pipeline() {
        return connected().async();
    }

    /** How long a command may take. */
    public Duration timeout() {
        return timeout;
    }

    private StatefulRedisConnection<String, String> connected() {
        try {
            return connection().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new RedisConnectionException("cannot connect to Redis", e.getCause());
        } catch (TimeoutException e) {
            throw new RedisConnectionException("no connection to Redis within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisConnectionException("interrupted while connecting to Redis", e);
        }
    }

    /** A subscription to one channel, on a connection of its own. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Subscribes to {@code channel} on a connection of its own that does not reconnect by itself:
     * {@code onLost} runs (once, on a Lettuce thread) when that connection is lost, and its owner
     * subscribes again; what was published meanwhile is its business. {@code onMessage} runs on a
     * Lettuce thread.
     */
    public CompletableFuture<Subscription> subscribe(
            String channel, Consumer<String> onMessage, Runnable onLost) {
        RedisClient own = RedisClient.create(resources, uri);
        own.setOptions(client.getOptions().mutate().autoReconnect(false).build());
        AtomicBoolean lost = new AtomicBoolean();
        Runnable lose =
                () -> {
                    if (lost.compareAndSet(false, true)) {
                        onLost.run();
                    }
                };
        CompletableFuture<Subscription> out = new CompletableFuture<>();
        own.connectPubSubAsync(StringCodec.UTF8, uri)
                .toCompletableFuture()
                .thenCompose(
                        conn -> {
                            Subscription s =
                                    () -> {
                                        lost.set(true);
                                        conn.closeAsync()
                                                .whenComplete((v, e) -> own.shutdownAsync());
                                    };
                            conn.addListener(
                                    new RedisPubSubAdapter<String, String>() {
                                        @Override
                                        public void message(String ch, String message) {
                                            onMessage.accept(message);
                                        }
                                    });
                            conn.addListener(
                                    new RedisConnectionStateListener() {
                                        @Override
                                        public void onRedisDisconnected(
                                                RedisChannelHandler<?, ?> connection) {
                                            lose.run();
                                        }
                                    });
                            return conn.async()
                                    .subscribe(channel)
                                    .toCompletableFuture()
                                    .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                    .handle(
                                            (v, err) -> {
                                                if (err != null) {
                                                    s.close();
                                                    throw new CompletionException(err);
                                                }
                                                return s;
                                            });
                        })
                .whenComplete(
                        (s, err) -> {
                            if (err != null) {
                                own.shutdownAsync();
                                out.completeExceptionally(err);
                            } else {
                                out.complete(s);
                            }
                        });
        return out;
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisConnection<String, String>> c;
        synchronized (this) {
            closed = true;
            c = connection;
        }
        if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
            c.join().close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
