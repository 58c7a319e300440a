package io.engram.serving;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.engram.aws.SigV4Reference;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * Stands in front of the test OpenSearch node as AWS's OpenSearch Service stands in front of its
 * domains: a request whose Signature Version 4 does not match what it received (method, path,
 * query, Host, body, date) with the one known key is refused with 403; a matching one is passed on.
 * The real service is a remote paid API; the node behind is real.
 */
final class SigV4CheckingProxy implements AutoCloseable {

    private static final Pattern AUTHORIZATION =
            Pattern.compile(
                    "AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request,"
                            + " SignedHeaders=([^,]+), Signature=([0-9a-f]{64})");

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String upstream;
    private final AwsSessionCredentials key;
    private final String region;
    private final String service;
    private final AtomicInteger verified = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    private SigV4CheckingProxy(
            String upstream, AwsSessionCredentials key, String region, String service)
            throws IOException {
        this.upstream =
                upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
        this.key = key;
        this.region = region;
        this.service = service;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    static SigV4CheckingProxy start(
            String upstream, AwsSessionCredentials key, String region, String service)
            throws IOException {
        return new SigV4CheckingProxy(upstream, key, region, service);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int verified() {
        return verified.get();
    }

    int refused() {
        return refused.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String why = mismatch(exchange, body);
            if (why != null) {
                refused.incrementAndGet();
                reply(
                        exchange,
                        403,
                        ("{\"message\":\"" + why + "\"}").getBytes(StandardCharsets.UTF_8));
                return;
            }
            verified.incrementAndGet();
            URI target = URI.create(upstream + exchange.getRequestURI().toString());
            HttpRequest.Builder forward =
                    HttpRequest.newBuilder(target)
                            .method(
                                    exchange.getRequestMethod(),
                                    body.length == 0
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofByteArray(body));
            String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
            if (contentType != null) {
                forward.header("Content-Type", contentType);
            }
            HttpResponse<byte[]> response =
                    http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            reply(exchange, response.statusCode(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the request's signature is not the one its content makes, or null when it is. */
    private String mismatch(HttpExchange exchange, byte[] body) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization == null) {
            return "no Authorization header";
        }
        Matcher m = AUTHORIZATION.matcher(authorization);
        if (!m.matches()) {
            return "malformed Authorization header";
        }
        if (!m.group(1).equals(key.accessKeyId())
                || !m.group(3).equals(region)
                || !m.group(4).equals(service)) {
            return "unknown key, region or service";
        }
        String payloadHash = SigV4Reference.payloadHash(body);
        if (!payloadHash.equals(exchange.getRequestHeaders().getFirst("X-Amz-Content-Sha256"))) {
            return "body does not match X-Amz-Content-Sha256";
        }
        if (!key.sessionToken()
                .equals(exchange.getRequestHeaders().getFirst("X-Amz-Security-Token"))) {
            return "wrong session token";
        }
        Map<String, String> signed = new TreeMap<>();
        for (String name : m.group(5).split(";")) {
            String value = exchange.getRequestHeaders().getFirst(name);
            if (value == null) {
                return "signed header " + name + " missing";
            }
            signed.put(name, value);
        }
        if (!signed.containsKey("host")) {
            return "Host not signed";
        }
        String expected =
                SigV4Reference.authorization(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getRawPath(),
                        exchange.getRequestURI().getRawQuery(),
                        signed,
                        payloadHash,
                        key,
                        region,
                        service,
                        signed.getOrDefault("x-amz-date", ""));
        return expected.equals(authorization) ? null : "signature does not match";
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
