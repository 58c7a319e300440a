package io.engram.jobs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.cache.CacheKeys;
import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.memory.Scope;
import io.engram.services.RedisServer;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/** Cache generation bumps that Redis refuses are kept and sent again by the writer's next bump. */
class CacheGenerationsIT {

    private static final Scope ANN = new Scope("acme", "default", "prod", "ann");
    private static final Scope BEN = new Scope("acme", "default", "prod", "ben");

    @Test
    void bumpsRedisRefusedAreSentAgainOnceEachWhenItTakesThem() throws Exception {
        try (RedisServer server =
                        RedisServer.start(Files.createTempDirectory("engram-bumps"), 0, false);
                JedisPooled admin = new JedisPooled(URI.create(server.url()));
                RedisConnection redis =
                        RedisConnections.open(EngramConfig.Redis.at(server.url(), ""))) {
            CacheGenerations.Pending bumps = new CacheGenerations.Pending(redis, true);
            bumps.bump(List.of(ANN));
            assertThat(admin.get(CacheKeys.generation(ANN))).isEqualTo("1");

            // A primary short of replicas: reads are answered, writes refused.
            admin.configSet("min-replicas-to-write", "1");
            bumps.bump(List.of(ANN));
            bumps.bump(List.of(BEN));
            assertThat(bumps.waiting()).isEqualTo(2);
            bumps.retry();
            assertThat(bumps.waiting()).isEqualTo(2);
            assertThat(admin.get(CacheKeys.generation(ANN))).isEqualTo("1");
            assertThat(admin.get(CacheKeys.generation(BEN))).isNull();

            admin.configSet("min-replicas-to-write", "0");
            bumps.retry();
            assertThat(bumps.waiting()).isZero();
            assertThat(admin.get(CacheKeys.generation(ANN))).isEqualTo("2");
            assertThat(admin.get(CacheKeys.generation(BEN))).isEqualTo("1");
            assertThat(admin.get(CacheKeys.otherWrites(BEN)))
                    .as("the extraction job is told too")
                    .isEqualTo("1");
            bumps.retry();
            assertThat(admin.get(CacheKeys.generation(ANN))).as("sent once").isEqualTo("2");
        }
    }
}
