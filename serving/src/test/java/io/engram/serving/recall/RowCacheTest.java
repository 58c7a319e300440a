package io.engram.serving.recall;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RowCacheTest {

    private final Scope ann = new Scope("acme", "default", "prod", "ann");
    private final Scope annElsewhere = new Scope("acme", "support", "prod", "ann");
    private final Scope bob = new Scope("acme", "default", "prod", "bob");
    private final AtomicLong now = new AtomicLong();
    private final RowCache rows = new RowCache(10, 3, Duration.ofSeconds(60), now::get);

    private static MemoryRow row(String id) {
        Instant t = Instant.parse("2026-11-01T10:00:00Z");
        return new MemoryRow(
                id,
                "memory " + id,
                "semantic",
                "hot",
                "active",
                List.of(),
                List.of(),
                0.5,
                0.5,
                1,
                1,
                0,
                t,
                t,
                null,
                "minilm-l6-v2-int8",
                null,
                null,
                null);
    }

    private void load(Scope scope, String generation, String... ids) {
        Long ticket = rows.startLoading(scope);
        assertThat(ticket).isNotNull();
        rows.loaded(
                scope, ticket, generation, List.of(ids).stream().map(RowCacheTest::row).toList());
    }

    @Test
    void aUsersMemoriesAreUsedOnlyAtTheGenerationTheyWereReadAt() {
        assertThat(rows.get(ann, "7")).isNull();
        load(ann, "7", "m1", "m2");

        assertThat(rows.get(ann, "7")).containsOnlyKeys("m1", "m2");
        assertThat(rows.get(ann, "8")).as("a write bumped the generation since").isNull();
        assertThat(rows.get(annElsewhere, "7")).as("another project of the same user").isNull();
        assertThat(rows.stats()).containsExactly(1, 3);
    }

    @Test
    void oneReadPerUserAtATimeAndNoneForAUserWithTooMany() {
        Long first = rows.startLoading(ann);
        assertThat(first).isNotNull();
        assertThat(rows.startLoading(ann)).as("already being read").isNull();
        rows.loaded(ann, first, "1", List.of(row("m1"), row("m2"), row("m3"), row("m4")));

        assertThat(rows.get(ann, "1")).as("4 memories, 3 kept per user at most").isNull();
        assertThat(rows.startLoading(ann)).as("known to have too many").isNull();
        assertThat(rows.readLimit()).isEqualTo(4);
    }

    @Test
    void aFailedReadKeepsNothingAndMayBeTriedAgain() {
        Long ticket = rows.startLoading(ann);
        rows.loaded(ann, ticket, "1", null);

        assertThat(rows.get(ann, "1")).isNull();
        assertThat(rows.startLoading(ann)).isNotNull();
    }

    @Test
    void aUsersMemoriesAreUsedForAMinuteAtMost() {
        load(ann, "1", "m1");
        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(rows.get(ann, "1")).containsOnlyKeys("m1");

        now.addAndGet(Duration.ofSeconds(2).toNanos());
        rows.expire();

        assertThat(rows.held(ann)).isZero();
        assertThat(rows.rows()).isZero();
    }

    @Test
    void theOldestUsersGoWhenTheRowsAreFull() {
        load(ann, "1", "a1", "a2", "a3");
        load(bob, "1", "b1", "b2", "b3");
        load(annElsewhere, "1", "c1", "c2", "c3");
        assertThat(rows.rows()).isEqualTo(9);

        Scope cy = new Scope("acme", "default", "prod", "cy");
        load(cy, "1", "d1", "d2");

        assertThat(rows.rows()).isEqualTo(8);
        assertThat(rows.held(ann)).isZero();
        assertThat(rows.held(bob)).isEqualTo(3);
        assertThat(rows.held(cy)).isEqualTo(2);
    }

    @Test
    void forgettingAUserDropsItsMemoriesAndAReadStartedBeforeTheForget() {
        load(ann, "1", "m1");
        load(annElsewhere, "1", "m2");
        load(bob, "3", "m3");
        Long before = rows.startLoading(new Scope("acme", "other", "prod", "ann"));

        int dropped = rows.forget(s -> s.tenantId().equals("acme") && s.userId().equals("ann"));
        rows.loaded(
                new Scope("acme", "other", "prod", "ann"),
                before,
                "1",
                IntStream.range(0, 2).mapToObj(i -> row("late" + i)).toList());

        assertThat(dropped).isEqualTo(2);
        assertThat(rows.held(ann)).isZero();
        assertThat(rows.held(annElsewhere)).isZero();
        assertThat(rows.held(new Scope("acme", "other", "prod", "ann")))
                .as("read before the forget, finished after it")
                .isZero();
        assertThat(rows.held(bob)).isEqualTo(1);
    }
}
