package io.engram.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The SDK-backed signer's headers, checked against a Signature Version 4 computed independently
 * from AWS's specification ({@link SigV4Reference}), which itself reproduces AWS's published test
 * suite.
 */
class AwsSignerTest {

    private static final Pattern SIGNED_HEADERS = Pattern.compile("SignedHeaders=([^,]+),");
    private static final AwsSessionCredentials TEMPORARY =
            AwsSessionCredentials.create("ASIAEXAMPLE", "secret", "token-1");
    private static final Clock NOW =
            Clock.fixed(Instant.parse("2026-11-23T17:00:00Z"), ZoneOffset.UTC);

    /** AWS's published suite: its example key, date, region and service; GET / with a query. */
    private static String suite(String rawQuery) {
        AwsCredentials example =
                AwsBasicCredentials.create(
                        "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        return SigV4Reference.authorization(
                "GET",
                "/",
                rawQuery,
                Map.of("Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z"),
                SigV4Reference.payloadHash(null),
                example,
                "us-east-1",
                "service",
                "20150830T123600Z");
    }

    @Test
    void theReferenceReproducesAwsPublishedSuite() {
        assertThat(suite(null))
                .isEqualTo(
                        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                                + " SignedHeaders=host;x-amz-date,"
                                + " Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
        assertThat(suite("Param2=value2&Param1=value1"))
                .endsWith(
                        "Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    }

    /** The requests Engram's clients send: searches with routing, bulk bodies, index setup. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "GET|https://search-x.eu-west-1.es.amazonaws.com/_cluster/health|",
                "POST|https://search-x.eu-west-1.es.amazonaws.com/engram-memories/_msearch?routing=acme%2Fann&filter_path=responses.hits.hits._id,b|{\"query\":{}}",
                "PUT|http://127.0.0.1:9200/engram-memories-000001|{\"settings\":{}}",
                "DELETE|https://search-x.eu-west-1.es.amazonaws.com/idx/_doc/a%3Ab?refresh=true|",
                "POST|https://search-x.eu-west-1.es.amazonaws.com/_bulk|{\"index\":{}}\n{\"a\":\"é\"}\n"
            })
    void whatTheSdkSignsAServiceAccepts(String method, String url, String body) {
        URI uri = URI.create(url);
        byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        AwsSigner signer =
                new AwsSigner(StaticCredentialsProvider.create(TEMPORARY), "eu-west-1", "es", NOW);
        Map<String, String> sent = signer.headers(method, uri, bytes);

        String payloadHash = SigV4Reference.payloadHash(bytes);
        assertThat(sent)
                .containsEntry("X-Amz-Date", "20261123T170000Z")
                .containsEntry("X-Amz-Security-Token", "token-1")
                .containsEntry("x-amz-content-sha256", payloadHash)
                .doesNotContainKey("Host");
        Matcher names = SIGNED_HEADERS.matcher(sent.get("Authorization"));
        assertThat(names.find()).isTrue();
        assertThat(names.group(1))
                .isEqualTo("host;x-amz-content-sha256;x-amz-date;x-amz-security-token");
        Map<String, String> signed = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        signed.putAll(sent);
        signed.put("host", RequestSigner.host(uri));
        Map<String, String> received = new TreeMap<>();
        for (String name : names.group(1).split(";")) {
            received.put(name, signed.get(name));
        }
        assertThat(sent.get("Authorization"))
                .isEqualTo(
                        SigV4Reference.authorization(
                                method,
                                uri.getRawPath(),
                                uri.getRawQuery(),
                                received,
                                payloadHash,
                                TEMPORARY,
                                "eu-west-1",
                                "es",
                                "20261123T170000Z"));
    }

    @Test
    void anotherBodyAnotherSignature() {
        AwsSigner signer =
                new AwsSigner(StaticCredentialsProvider.create(TEMPORARY), "eu-west-1", "es", NOW);
        URI uri = URI.create("https://search-x.eu-west-1.es.amazonaws.com/idx/_search");
        assertThat(signer.headers("POST", uri, "{}".getBytes(StandardCharsets.UTF_8)))
                .isNotEqualTo(
                        signer.headers("POST", uri, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theHostHasItsPortOnlyWhenNotTheSchemesOwn() {
        assertThat(RequestSigner.host(URI.create("https://a.example:443/x")))
                .isEqualTo("a.example");
        assertThat(RequestSigner.host(URI.create("http://127.0.0.1:9200/x")))
                .isEqualTo("127.0.0.1:9200");
    }
}
