package io.engram.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.Await;
import io.engram.services.SharedServices;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.SetParams;

class RedisServerIT {

    @Test
    void setGetAndTtlExpiryOnTheRealServer() {
        try (JedisPooled redis = new JedisPooled(URI.create(SharedServices.redis().url()))) {
            redis.set("engram:it:kept", "value");
            redis.set("engram:it:short", "gone soon", SetParams.setParams().px(300));
            assertThat(redis.get("engram:it:kept")).isEqualTo("value");
            assertThat(redis.get("engram:it:short")).isEqualTo("gone soon");
            assertThat(redis.pttl("engram:it:short")).isBetween(1L, 300L);

            assertThat(Await.until(Duration.ofSeconds(10), () -> !redis.exists("engram:it:short")))
                    .as("key with 300 ms TTL expired")
                    .isTrue();
            assertThat(redis.get("engram:it:kept")).isEqualTo("value");
            assertThat(redis.incr("engram:it:generation")).isEqualTo(1L);
            assertThat(redis.incr("engram:it:generation")).isEqualTo(2L);
        }
    }
}
