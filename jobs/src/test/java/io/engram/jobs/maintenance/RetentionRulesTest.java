package io.engram.jobs.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetentionRulesTest {

    private static RetentionRules.Rule keep(int days) {
        return new RetentionRules.Rule(Optional.of(days), 7);
    }

    @Test
    void eachLevelBeatsTheLevelsAfterIt() {
        RetentionRules rules = new RetentionRules();
        rules.add("t", null, null, keep(100));
        assertThat(rules.resolve("t", "p", "semantic").keepDays()).contains(100);
        rules.add("t", "p", null, keep(50));
        assertThat(rules.resolve("t", "p", "semantic").keepDays()).contains(50);
        assertThat(rules.resolve("t", "other", "semantic").keepDays()).contains(100);
        rules.add("t", null, "semantic", keep(30));
        assertThat(rules.resolve("t", "p", "semantic").keepDays()).contains(30);
        assertThat(rules.resolve("t", "p", "episodic").keepDays()).contains(50);
        rules.add("t", "p", "semantic", keep(10));
        assertThat(rules.resolve("t", "p", "semantic").keepDays()).contains(10);
        assertThat(rules.resolve("t", "other", "semantic").keepDays()).contains(30);
    }

    @Test
    void withoutRulesOrWithAKeepForeverRuleNothingExpires() {
        RetentionRules rules = new RetentionRules();
        assertThat(rules.resolve("t", "p", "semantic")).isEqualTo(RetentionRules.Rule.FOREVER);
        rules.add("t", null, null, keep(5));
        rules.add("t", "p", null, new RetentionRules.Rule(Optional.empty(), 0));
        assertThat(rules.resolve("t", "p", "semantic").keepDays()).isEmpty();
        assertThat(rules.resolve("u", "p", "semantic").keepDays()).isEmpty();
    }
}
