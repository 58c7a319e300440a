package io.engram.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void generatedKeysAreWellFormedAndDistinct() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            String key = ApiKeys.generate();
            assertThat(ApiKeys.isWellFormed(key)).isTrue();
            keys.add(key);
        }
        assertThat(keys).hasSize(100);
    }

    @Test
    void hashIsStableHexAndNeverTheKey() {
        String key = "ek_" + "a".repeat(40);
        assertThat(ApiKeys.hash(key)).hasSize(64).isEqualTo(ApiKeys.hash(key)).doesNotContain(key);
        assertThat(ApiKeys.hash(key)).isNotEqualTo(ApiKeys.hash("ek_" + "b".repeat(40)));
        assertThat(ApiKeys.displayPrefix(key)).isEqualTo("ek_aaaaaaa");
    }

    @Test
    void malformedKeysAreRecognised() {
        assertThat(ApiKeys.isWellFormed(null)).isFalse();
        assertThat(ApiKeys.isWellFormed("ek_short")).isFalse();
        assertThat(ApiKeys.isWellFormed("xx_" + "a".repeat(40))).isFalse();
    }
}
