package io.engram.serving.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyAnswersTest {

    private static KeyAnswers.Answer found(String keyId, long at) {
        return new KeyAnswers.Answer(
                new Principal(keyId, "acme", "default", "prod", Set.of("read"), 100), at);
    }

    private static KeyAnswers.Answer notFound(long at) {
        return new KeyAnswers.Answer(null, at);
    }

    @Test
    void aFloodOfMadeUpKeysLeavesTheRealKeysAnswers() {
        KeyAnswers answers = new KeyAnswers(100, 10);
        answers.remember("real", found("k1", 1));
        for (int i = 0; i < 1_000; i++) {
            answers.remember("made-up-" + i, notFound(2 + i));
        }
        assertThat(answers.get("real").principal().keyId()).isEqualTo("k1");
        assertThat(answers.size())
                .as("the made-up keys stay within their bound")
                .isLessThanOrEqualTo(11);
    }

    @Test
    void aRevokedKeyIsAnsweredAsUnknownAndARestoredOneAsFound() {
        KeyAnswers answers = new KeyAnswers(100, 10);
        answers.remember("key", found("k1", 1));
        answers.remember("key", notFound(2));
        assertThat(answers.get("key").principal()).isNull();
        assertThat(answers.size()).isEqualTo(1);
        answers.remember("key", found("k1", 3));
        assertThat(answers.get("key").lookedUpAt()).isEqualTo(3);
        assertThat(answers.size()).isEqualTo(1);
    }

    @Test
    void realKeysOverTheirBoundLoseTheLeastRecentlyLookedUp() {
        KeyAnswers answers = new KeyAnswers(20, 10);
        for (int i = 0; i < 20; i++) {
            answers.remember("key-" + i, found("k" + i, 100 + i));
        }
        answers.remember("key-0", found("k0", 500));
        answers.remember("new", found("new", 600));
        assertThat(answers.get("new")).isNotNull();
        assertThat(answers.get("key-0")).as("looked up again just now").isNotNull();
        assertThat(answers.get("key-1")).as("the least recent").isNull();
        assertThat(answers.get("key-2")).as("the second least recent").isNull();
        assertThat(answers.get("key-3")).isNotNull();
    }
}
