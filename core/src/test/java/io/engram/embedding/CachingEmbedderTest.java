package io.engram.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CachingEmbedderTest {

    /** A model that records every text it is asked for. */
    private static final class Recording implements Embedder {
        final List<String> calls = new ArrayList<>();

        @Override
        public synchronized List<float[]> embed(List<String> texts) {
            calls.addAll(texts);
            return texts.stream().map(t -> new float[] {t.length(), 1}).toList();
        }

        @Override
        public String version() {
            return "recording";
        }

        @Override
        public int dimension() {
            return 2;
        }
    }

    private final Scope ann = new Scope("acme", "default", "prod", "ann");
    private final Scope annElsewhere = new Scope("acme", "support", "prod", "ann");
    private final Scope bob = new Scope("acme", "default", "prod", "bob");

    @Test
    void forgettingAnOwnerDropsItsTextsAndNobodyElses() {
        Recording model = new Recording();
        CachingEmbedder cache = new CachingEmbedder(model, 100);
        cache.embed(ann, List.of("my wife's birthday", "shared question"));
        cache.embed(annElsewhere, List.of("a ticket"));
        cache.embed(bob, List.of("shared question"));
        assertThat(cache.held(ann)).isEqualTo(2);

        int dropped = cache.forget(s -> s.tenantId().equals("acme") && s.userId().equals("ann"));

        assertThat(dropped).isEqualTo(3);
        assertThat(cache.held(ann)).isZero();
        assertThat(cache.held(annElsewhere)).isZero();
        assertThat(cache.held(bob)).isEqualTo(1);
        model.calls.clear();
        cache.embed(bob, List.of("shared question"));
        cache.embed(ann, List.of("shared question"));
        assertThat(model.calls)
                .as("only ann's text is computed again")
                .containsExactly("shared question");
    }

    @Test
    void entriesExpireAfterTheirMaximumAgeEvenWithoutCalls() {
        Recording model = new Recording();
        AtomicLong now = new AtomicLong();
        CachingEmbedder cache = new CachingEmbedder(model, 100, Duration.ofMinutes(5), now::get);
        cache.embed(ann, List.of("first"));
        now.addAndGet(Duration.ofMinutes(3).toNanos());
        cache.embed(ann, List.of("second"));
        now.addAndGet(Duration.ofMinutes(3).toNanos());

        cache.expire();

        assertThat(cache.held(ann))
                .as("only the entry computed 3 minutes ago is left")
                .isEqualTo(1);
        model.calls.clear();
        cache.embed(ann, List.of("first", "second"));
        assertThat(model.calls).containsExactly("first");
        assertThat(cache.stats()).containsExactly(1, 3);
    }

    @Test
    void theOldestEntryGoesWhenFull() {
        Recording model = new Recording();
        CachingEmbedder cache = new CachingEmbedder(model, 2);
        cache.embed(List.of("alpha", "beta"));
        cache.embed(List.of("alpha", "gamma"));
        model.calls.clear();
        cache.embed(List.of("alpha", "gamma"));
        assertThat(model.calls).as("alpha was the oldest").containsExactly("alpha");
        assertThat(cache.forget(s -> true)).as("unowned texts belong to no user").isZero();
    }
}
