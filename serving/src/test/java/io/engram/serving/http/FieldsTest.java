package io.engram.serving.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class FieldsTest {

    @Test
    void aNumberStoredAsAFloatIsRoundedToOneNotRefusedByTheDatabase() {
        // Double.MIN_VALUE: within [0, 1], but no 4-byte float holds it (PostgreSQL: "underflow").
        JsonObject tiny = new JsonObject().put("importance", 4.9E-324);
        assertThat(Fields.real(tiny, "importance", 0.5, 0, 1)).isZero();
        assertThat(Fields.real(new JsonObject().put("importance", 0.3), "importance", 0.5, 0, 1))
                .isEqualTo((double) 0.3f);
        assertThat(Fields.real(new JsonObject(), "importance", 0.5, 0, 1)).isEqualTo(0.5);
        assertThatThrownBy(
                        () ->
                                Fields.real(
                                        new JsonObject().put("importance", 1.5),
                                        "importance",
                                        0.5,
                                        0,
                                        1))
                .hasMessageContaining("importance: must be from 0.0 to 1.0");
    }
}
