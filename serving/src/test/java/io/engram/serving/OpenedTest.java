package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenedTest {

    @Test
    void closesLastOpenedFirstAndGoesOnPastAFailure() {
        List<String> closed = new ArrayList<>();
        Opened opened = new Opened();
        opened.add("pool", "p", () -> closed.add("pool"));
        opened.add(
                "model",
                "m",
                () -> {
                    closed.add("model");
                    throw new IllegalStateException("already closed");
                });
        opened.add("api", "a", () -> closed.add("api"));

        opened.closeAll();
        opened.closeAll();

        assertThat(closed).containsExactly("api", "model", "pool");
    }
}
