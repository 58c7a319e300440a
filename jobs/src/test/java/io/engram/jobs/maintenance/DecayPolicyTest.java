package io.engram.jobs.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.memory.Tier;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecayPolicyTest {

    private final DecayPolicy policy = new DecayPolicy(30, 14, 60, 0.8);

    @Test
    void decayHalvesPerHalfLifeAndImportantMemoriesDecaySlower() {
        assertThat(policy.decay(0, 0)).isEqualTo(1.0);
        assertThat(policy.decay(30, 0)).isEqualTo(0.5);
        assertThat(policy.decay(60, 0)).isEqualTo(0.25);
        assertThat(policy.decay(60, 1)).isEqualTo(0.5);
    }

    @Test
    void tiersFollowIdleDaysAndImportanceHoldsWarm() {
        assertThat(policy.tier(13, 0.1)).isEqualTo(Tier.HOT);
        assertThat(policy.tier(14, 0.1)).isEqualTo(Tier.WARM);
        assertThat(policy.tier(60, 0.1)).isEqualTo(Tier.COLD);
        assertThat(policy.tier(600, 0.8)).isEqualTo(Tier.WARM);
    }

    @Test
    void idleDaysAreWholeDaysAndNeverNegative() {
        Instant t = Instant.parse("2026-01-10T12:00:00Z");
        assertThat(DecayPolicy.idleDays(t, Instant.parse("2026-01-11T11:59:59Z"))).isZero();
        assertThat(DecayPolicy.idleDays(t, Instant.parse("2026-01-11T12:00:00Z"))).isEqualTo(1);
        assertThat(DecayPolicy.idleDays(t, Instant.parse("2026-01-01T00:00:00Z"))).isZero();
    }

    @Test
    void warmMustComeBeforeCold() {
        assertThatThrownBy(() -> new DecayPolicy(30, 60, 60, 0.8))
                .hasMessageContaining("maintenance.warm_after_days");
    }
}
