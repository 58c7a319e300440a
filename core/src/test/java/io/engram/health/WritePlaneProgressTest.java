package io.engram.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.health.WritePlaneProgress.State;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WritePlaneProgressTest {

    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    private static Instant at(int seconds) {
        return T.plusSeconds(seconds);
    }

    @Test
    void nothingWaitingIsCaughtUp() {
        WritePlaneProgress p = new WritePlaneProgress(Duration.ofSeconds(30));
        assertThat(p.last().state()).isEqualTo(State.UNKNOWN);
        assertThat(p.observe(at(0), 0, 0).state()).isEqualTo(State.CAUGHT_UP);
        assertThat(p.observe(at(100), 500, 500))
                .isEqualTo(new WritePlaneProgress.Report(State.CAUGHT_UP, 0, 0, null));
    }

    @Test
    void turnsWaitingWhileOffsetsMoveAreCatchingUp() {
        WritePlaneProgress p = new WritePlaneProgress(Duration.ofSeconds(30));
        p.observe(at(0), 100, 400);
        assertThat(p.observe(at(25), 200, 500).state()).isEqualTo(State.CATCHING_UP);
        // Moved at 25 s: 40 s later is only 15 s without progress.
        assertThat(p.observe(at(40), 200, 600).state()).isEqualTo(State.CATCHING_UP);
        assertThat(p.observe(at(40), 200, 600).lag()).isEqualTo(400);
    }

    @Test
    void offsetsThatStopWhileTurnsWaitAreStalledUntilTheyMoveAgain() {
        WritePlaneProgress p = new WritePlaneProgress(Duration.ofSeconds(30));
        p.observe(at(0), 100, 100);
        p.observe(at(10), 100, 150);
        WritePlaneProgress.Report stalled = p.observe(at(30), 100, 180);
        assertThat(stalled.state()).isEqualTo(State.STALLED);
        assertThat(stalled.secondsSinceProgress()).isEqualTo(30);
        assertThat(p.observe(at(35), 120, 180).state()).isEqualTo(State.CATCHING_UP);
        assertThat(p.observe(at(36), 180, 180).state()).isEqualTo(State.CAUGHT_UP);
    }

    @Test
    void aJobThatNeverCommittedStallsOnceTurnsWaitLongEnough() {
        WritePlaneProgress p = new WritePlaneProgress(Duration.ofSeconds(30));
        assertThat(p.observe(at(0), 0, 20).state()).isEqualTo(State.CATCHING_UP);
        assertThat(p.observe(at(31), 0, 20).state()).isEqualTo(State.STALLED);
    }

    @Test
    void unreadableOffsetsAreUnknownAndKeepTheLastProgress() {
        WritePlaneProgress p = new WritePlaneProgress(Duration.ofSeconds(30));
        p.observe(at(0), 10, 10);
        WritePlaneProgress.Report r = p.unreadable(at(12), "broker unreachable");
        assertThat(r.state()).isEqualTo(State.UNKNOWN);
        assertThat(r.secondsSinceProgress()).isEqualTo(12);
        assertThat(r.error()).isEqualTo("broker unreachable");
    }

    @Test
    void theStallLimitIsThreeCheckpointsAndAtLeastTenSeconds() {
        assertThat(WritePlaneProgress.stallLimit(Duration.ofSeconds(1)))
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(WritePlaneProgress.stallLimit(Duration.ofSeconds(20)))
                .isEqualTo(Duration.ofSeconds(60));
    }
}
