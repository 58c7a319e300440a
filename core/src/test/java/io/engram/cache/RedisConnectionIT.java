package io.engram.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.config.EngramConfig;
import io.engram.services.Await;
import io.engram.services.RedisServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Redis client of both planes against a server that is down, comes up, goes away and comes
 * back: it starts without Redis, fails fast while Redis is away instead of queueing, and works
 * again by itself; a subscription tells its owner when its connection is lost.
 */
class RedisConnectionIT {

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String ping(RedisConnection redis) throws Exception {
        return redis.async(c -> c.ping()).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void startsWithoutRedisFailsFastWhileItIsAwayAndRecoversByItself() throws Exception {
        int port = freePort();
        Path dir = Files.createTempDirectory("engram-redis-down");
        EngramConfig.Redis config = EngramConfig.Redis.at("redis://127.0.0.1:" + port, "");
        try (RedisConnection redis = RedisConnection.open(config, Duration.ofSeconds(2))) {
            // Nothing listens yet: opening did not fail, a command does, at once.
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> ping(redis)).hasStackTraceContaining("onnect");
            assertThatThrownBy(redis::sync)
                    .isInstanceOf(io.lettuce.core.RedisConnectionException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));

            RedisServer server = RedisServer.start(dir, port, false);
            try {
                assertThat(port).isEqualTo(server.port());
                assertThat(
                                Await.until(
                                        Duration.ofSeconds(10),
                                        () -> {
                                            try {
                                                return "PONG".equals(ping(redis));
                                            } catch (Exception e) {
                                                return false;
                                            }
                                        }))
                        .as("connects once Redis is up")
                        .isTrue();
                assertThat(redis.sync().incr("engram:test:n")).isEqualTo(1);
            } finally {
                server.close();
            }

            // Away again: commands are refused at once while the client reconnects.
            t0 = System.nanoTime();
            assertThat(
                            Await.until(
                                    Duration.ofSeconds(5),
                                    () -> {
                                        try {
                                            ping(redis);
                                            return false;
                                        } catch (Exception e) {
                                            return true;
                                        }
                                    }))
                    .isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));

            try (RedisServer again = RedisServer.start(dir, port, false)) {
                assertThat(
                                Await.until(
                                        Duration.ofSeconds(20),
                                        () -> {
                                            try {
                                                return "PONG".equals(ping(redis));
                                            } catch (Exception e) {
                                                return false;
                                            }
                                        }))
                        .as("reconnects by itself")
                        .isTrue();
            }
        }
    }

    @Test
    void aSubscriptionHearsMessagesAndTellsWhenItsConnectionIsLost() throws Exception {
        try (RedisServer server =
                        RedisServer.start(Files.createTempDirectory("engram-redis-sub"), 0, false);
                RedisConnection redis =
                        RedisConnection.open(
                                EngramConfig.Redis.at(server.url(), ""), Duration.ofSeconds(2))) {
            CopyOnWriteArrayList<String> heard = new CopyOnWriteArrayList<>();
            AtomicInteger lost = new AtomicInteger();
            RedisConnection.Subscription s =
                    redis.subscribe("engram:test:channel", heard::add, lost::incrementAndGet)
                            .get(10, TimeUnit.SECONDS);
            redis.sync().publish("engram:test:channel", "hello");
            assertThat(Await.until(Duration.ofSeconds(5), () -> heard.contains("hello"))).isTrue();

            redis.sync().clientKill(io.lettuce.core.KillArgs.Builder.typePubsub());
            assertThat(Await.until(Duration.ofSeconds(5), () -> lost.get() == 1))
                    .as("the owner is told, once")
                    .isTrue();
            s.close();
            assertThat(lost.get()).isEqualTo(1);
        }
    }
}
