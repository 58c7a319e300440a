package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.SharedServices;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP conventions clients rely on (RFC 9110, RFC 6750), with problem documents. */
class HttpConventionsIT {

    private static ServingFixture f;
    private static String key;

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("http_it", SharedServices.openSearch().url());
        key = f.key("acme", "default", "prod", "read", "write");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void aMissingOrRefusedKeyIsAnsweredWithTheBearerChallenge() throws Exception {
        ServingFixture.Reply none = f.call("GET", "/v1/memories?user_id=a", null, null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.response().headers().firstValue("WWW-Authenticate"))
                .hasValue("Bearer realm=\"engram\"");
        ServingFixture.Reply wrong =
                f.call(
                        "GET",
                        "/v1/memories?user_id=a",
                        "ek_0000000000000000000000000000000000000000",
                        null);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.response().headers().firstValue("WWW-Authenticate").orElse(""))
                .contains("error=\"invalid_token\"");
    }

    @Test
    void theAuthorizationSchemeIsCaseInsensitive() throws Exception {
        ServingFixture.Reply r =
                f.call(
                        "GET",
                        "/v1/memories?user_id=a",
                        null,
                        null,
                        Map.of("Authorization", "bearer " + key));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    @Test
    void aRoutedPathWithAnotherMethodIs405WithAllow() throws Exception {
        ServingFixture.Reply r = f.call("PUT", "/v1/memories", key, "{}");
        assertThat(r.status()).as(r.raw()).isEqualTo(405);
        assertThat(r.response().headers().firstValue("Allow")).hasValue("DELETE, GET, POST");
        assertThat(r.json().getString("detail")).contains("PUT /v1/memories");
        assertThat(f.call("GET", "/v1/nothing", key, null).status()).isEqualTo(404);
    }

    @Test
    void aTooLongRequestLineOrHeaderIsAProblemDocument() throws Exception {
        String uri = raw("GET /v1/memories?user_id=" + "a".repeat(10_000) + " HTTP/1.1\r\n");
        assertThat(uri).startsWith("HTTP/1.0 414").contains("application/problem+json");
        assertThat(new JsonObject(uri.substring(uri.indexOf("\r\n\r\n") + 4)).getInteger("status"))
                .isEqualTo(414);
        String header =
                raw(
                        "GET /v1/memories?user_id=a HTTP/1.1\r\nX-Padding: "
                                + "p".repeat(20_000)
                                + "\r\n");
        assertThat(header).contains(" 431 ").contains("application/problem+json");
        assertThat(header.substring(header.indexOf("\r\n\r\n") + 4)).contains("headers");
    }

    /** Sends a request as written (the JDK's client will not send these) and reads the answer. */
    private static String raw(String requestLineAndHeaders) throws Exception {
        java.net.URI base = java.net.URI.create(f.base);
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(
                            (requestLineAndHeaders + "Host: 127.0.0.1\r\n\r\n")
                                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(
                    socket.getInputStream().readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
