package io.engram.jobs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Changes cross the job's operators as bytes: each kind comes back as it went. */
class MemoryCodecTest {

    private static final Instant T = Instant.parse("2026-03-15T10:00:00Z");

    private static Memory memory(String content) {
        return new Memory(
                UUID.nameUUIDFromBytes(content.getBytes()),
                new Scope("acme", "default", "prod", "dana"),
                Optional.of("s1"),
                MemoryType.SEMANTIC,
                content,
                List.of(),
                "conversation",
                List.of("t1"),
                0.6,
                Tier.HOT,
                MemoryStatus.ACTIVE,
                T,
                Optional.empty(),
                Optional.empty(),
                1,
                "minilm-l6-v2-int8",
                new float[] {0.6f, 0.8f},
                T);
    }

    @Test
    void aContradictionKeepsWhatContradictsItAndTheWordItNamed() {
        Memory old = memory("Dana plays hockey for the Riverside Otters.");
        UUID by = UUID.randomUUID();
        MemoryChange.Contradicted sent =
                new MemoryChange.Contradicted(
                        old, by, List.of("t3", "t4", "t5"), "otters", "a later turn", 1.0);
        MemoryChange back =
                MemoryCodec.decodeChanges(
                                MemoryCodec.encodeChanges(
                                        List.of(
                                                sent,
                                                new MemoryChange.Created(
                                                        memory("Dana: otters folded"),
                                                        "excerpt",
                                                        0))))
                        .get(0);
        assertThat(back).isInstanceOf(MemoryChange.Contradicted.class);
        MemoryChange.Contradicted x = (MemoryChange.Contradicted) back;
        assertThat(x.memory().id()).isEqualTo(old.id());
        assertThat(x.memory().content()).isEqualTo(old.content());
        assertThat(x.by()).isEqualTo(by);
        assertThat(x.byTurns()).containsExactly("t3", "t4", "t5");
        assertThat(x.word()).isEqualTo("otters");
        assertThat(x.reason()).isEqualTo("a later turn");
    }
}
