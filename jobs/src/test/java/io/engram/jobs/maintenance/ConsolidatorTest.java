package io.engram.jobs.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ConsolidatorTest {

    private static final Instant T = Instant.parse("2026-05-01T00:00:00Z");

    private static Consolidator.Member member(
            String content, int day, MemoryType type, float... vector) {
        return new Consolidator.Member(
                UUID.nameUUIDFromBytes(content.getBytes()),
                type,
                content,
                T.plusSeconds(day * 86_400L),
                vector,
                content.startsWith("folded"));
    }

    @Test
    void foldKeepsEveryValueWithTheNewestFirstAndDropsRepeats() {
        String folded =
                Consolidator.fold(
                        List.of(
                                member("Hawaii trip budget is $10,000.", 0, MemoryType.SEMANTIC),
                                member("Hawaii trip budget is $12,000", 1, MemoryType.SEMANTIC),
                                member("Flights booked for June 5", 2, MemoryType.SEMANTIC),
                                member("flights booked for June 5.", 3, MemoryType.SEMANTIC)));
        assertThat(folded)
                .isEqualTo(
                        "Hawaii trip budget is $12,000 (earlier: Hawaii trip budget is $10,000);"
                                + " flights booked for June 5.");
    }

    @Test
    void clustersJoinSimilarMemoriesOfOneTypeButNeverEpisodes() {
        List<List<Consolidator.Member>> clusters =
                Consolidator.clusters(
                        List.of(
                                member("a", 0, MemoryType.SEMANTIC, 1, 0, 0),
                                member("b", 1, MemoryType.SEMANTIC, 0.9f, 0.1f, 0),
                                member("c", 2, MemoryType.SOCIAL, 1, 0, 0),
                                member("d", 3, MemoryType.EPISODIC, 1, 0, 0),
                                member("e", 4, MemoryType.EPISODIC, 1, 0, 0),
                                member("f", 5, MemoryType.SEMANTIC, 0, 1, 0),
                                member("folded g", 6, MemoryType.PROCEDURAL, 0, 0, 1),
                                member("folded h", 7, MemoryType.PROCEDURAL, 0, 0, 1)),
                        0.8);
        assertThat(clusters).hasSize(1);
        assertThat(clusters.get(0))
                .extracting(Consolidator.Member::content)
                .containsExactly("a", "b");
    }
}
