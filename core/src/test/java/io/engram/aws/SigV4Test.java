package io.engram.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The signature against AWS's published Signature Version 4 test suite (its example key, date,
 * region and service), and the headers Engram's clients add.
 */
class SigV4Test {

    private static final AwsCredentials EXAMPLE =
            new AwsCredentials(
                    "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "", Instant.MAX);
    private static final String EMPTY_SHA256 = HexFormat.of().formatHex(SigV4.sha256(new byte[0]));

    private static String suite(String rawPath, String rawQuery) {
        return SigV4.authorization(
                "GET",
                rawPath,
                rawQuery,
                Map.of("Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z"),
                EMPTY_SHA256,
                EXAMPLE,
                "us-east-1",
                "service",
                "20150830T123600Z");
    }

    @Test
    void getVanilla() {
        assertThat(suite("/", null))
                .isEqualTo(
                        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                                + " SignedHeaders=host;x-amz-date,"
                                + " Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    }

    @Test
    void getVanillaQueryOrderKeyCase() {
        assertThat(suite("/", "Param2=value2&Param1=value1"))
                .endsWith(
                        "Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    }

    @Test
    void canonicalQueryDecodesThenEncodesTheOneWay() {
        assertThat(SigV4.canonicalQuery("routing=acme/ann&filter_path=responses.hits.hits._id,b"))
                .isEqualTo("filter_path=responses.hits.hits._id%2Cb&routing=acme%2Fann");
        assertThat(SigV4.canonicalQuery("b=2&a=1&a=0")).isEqualTo("a=0&a=1&b=2");
        assertThat(SigV4.canonicalPath("/engram-memories/_msearch"))
                .isEqualTo("/engram-memories/_msearch");
    }

    @Test
    void headersSignTheBodyTheHostAndTheSessionToken() {
        AwsCredentials temporary =
                new AwsCredentials(
                        "ASIAEXAMPLE", "secret", "token-1", Instant.parse("2026-11-23T18:00:00Z"));
        byte[] body = "{\"query\":{}}".getBytes(StandardCharsets.UTF_8);
        Map<String, String> h =
                SigV4.headers(
                        "POST",
                        URI.create(
                                "https://search-x.eu-west-1.es.amazonaws.com/idx/_search?routing=a%2Fb"),
                        body,
                        temporary,
                        "eu-west-1",
                        "es",
                        Instant.parse("2026-11-23T17:00:00Z"));
        assertThat(h)
                .containsEntry("X-Amz-Date", "20261123T170000Z")
                .containsEntry("X-Amz-Security-Token", "token-1")
                .containsEntry(
                        "X-Amz-Content-Sha256", HexFormat.of().formatHex(SigV4.sha256(body)));
        assertThat(h.get("Authorization"))
                .startsWith(
                        "AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261123/eu-west-1/es/aws4_request,"
                                + " SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"
                                + " Signature=");
        // another body, another signature
        Map<String, String> other =
                SigV4.headers(
                        "POST",
                        URI.create(
                                "https://search-x.eu-west-1.es.amazonaws.com/idx/_search?routing=a%2Fb"),
                        "{}".getBytes(StandardCharsets.UTF_8),
                        temporary,
                        "eu-west-1",
                        "es",
                        Instant.parse("2026-11-23T17:00:00Z"));
        assertThat(other.get("Authorization")).isNotEqualTo(h.get("Authorization"));
    }

    @Test
    void theHostHasItsPortOnlyWhenNotTheSchemesOwn() {
        assertThat(SigV4.host(URI.create("https://a.example:443/x"))).isEqualTo("a.example");
        assertThat(SigV4.host(URI.create("http://127.0.0.1:9200/x"))).isEqualTo("127.0.0.1:9200");
    }
}
