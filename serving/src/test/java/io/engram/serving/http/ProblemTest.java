package io.engram.serving.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class ProblemTest {

    @Test
    void anUnreachableOrSlowStoreIsA503ToRetry() {
        for (Throwable failure :
                new Throwable[] {
                    new CompletionException(new ConnectException("Connection refused")),
                    new TimeoutException("no answer in 1000 ms"),
                    new PgException("terminating connection", "FATAL", "57P01", null),
                    new PgException("too many clients already", "FATAL", "53300", null),
                    new PgException("not currently accepting connections", "FATAL", "55000", null)
                }) {
            Problem p = Problem.ofUnreachableStore(failure, "r1");
            assertThat(p).as(failure.toString()).isNotNull();
            assertThat(p.status()).isEqualTo(503);
            assertThat(p.retryAfterSeconds()).isEqualTo(1L);
            assertThat(p.getMessage()).contains("r1");
        }
    }

    @Test
    void aFaultOfOursStaysA500() {
        assertThat(
                        Problem.ofUnreachableStore(
                                new PgException("syntax error", "ERROR", "42601", null), "r1"))
                .isNull();
        assertThat(Problem.ofUnreachableStore(new IllegalStateException("bug"), "r1")).isNull();
        assertThat(
                        Problem.ofUnreachableStore(
                                new PgException("no state", "ERROR", null, null), "r1"))
                .isNull();
    }
}
