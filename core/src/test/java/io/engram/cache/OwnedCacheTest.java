package io.engram.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.Scope;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OwnedCacheTest {

    private final Scope ann = new Scope("acme", "default", "prod", "ann");
    private final Scope bob = new Scope("acme", "default", "prod", "bob");
    private final AtomicLong now = new AtomicLong();

    @Test
    void theOldestEntriesGoUntilTheWeightsFit() {
        OwnedCache<String, List<String>> cache =
                new OwnedCache<>(5, List::size, Duration.ofMinutes(1), now::get);
        cache.put("a", ann, List.of("1", "2"));
        cache.put("b", bob, List.of("1", "2"));
        cache.put("c", null, List.of("1", "2", "3"));

        assertThat(cache.get("a")).isNull();
        assertThat(cache.get("b")).hasSize(2);
        assertThat(cache.weight()).isEqualTo(5);

        cache.put("b", bob, List.of("1"));
        assertThat(cache.weight()).as("a replaced entry's weight is taken back").isEqualTo(4);
        cache.put("d", ann, List.of("1", "2", "3", "4", "5", "6"));
        assertThat(cache.get("d")).as("heavier than the whole cache: not kept").isNull();
        assertThat(cache.weight()).isEqualTo(4);
    }

    @Test
    void forgettingAndExpiringGiveTheirWeightBack() {
        OwnedCache<String, List<String>> cache =
                new OwnedCache<>(10, List::size, Duration.ofMinutes(1), now::get);
        cache.put("a", ann, List.of("1", "2"));
        cache.put("b", bob, List.of("1", "2", "3"));
        now.addAndGet(Duration.ofSeconds(30).toNanos());
        cache.put("c", null, List.of("1"));

        assertThat(cache.forget(s -> s.userId().equals("ann"))).isEqualTo(1);
        assertThat(cache.forget(s -> true)).as("an entry without owner stays").isEqualTo(1);
        assertThat(cache.weight()).isEqualTo(1);

        now.addAndGet(Duration.ofSeconds(61).toNanos());
        cache.expire();
        assertThat(cache.get("c")).isNull();
        assertThat(cache.weight()).isZero();
    }
}
