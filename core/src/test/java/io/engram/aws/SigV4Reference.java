package io.engram.aws;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import software.amazon.awssdk.auth.credentials.AwsCredentials;

/**
 * AWS Signature Version 4 computed as a service computes it from the request it received: the test
 * proxy's check of what the AWS SDK's signer sends, written from AWS's specification and
 * independent of the SDK.
 */
public final class SigV4Reference {

    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final HexFormat HEX = HexFormat.of();

    private SigV4Reference() {}

    /**
     * The hex SHA-256 of a request's body (null: none), as {@code X-Amz-Content-Sha256} sends it.
     */
    public static String payloadHash(byte[] body) {
        return HEX.formatHex(sha256(body == null ? new byte[0] : body));
    }

    /**
     * The Authorization header of a request whose headers to sign are {@code signedHeaders} ({@code
     * host} and {@code x-amz-date} among them): what a client sends, and what a server that checks
     * the signature computes from the request it received.
     */
    public static String authorization(
            String method,
            String rawPath,
            String rawQuery,
            Map<String, String> signedHeaders,
            String payloadHash,
            AwsCredentials credentials,
            String region,
            String service,
            String amzDate) {
        Map<String, String> headers = new TreeMap<>();
        signedHeaders.forEach((k, v) -> headers.put(k.toLowerCase(), v.trim()));
        StringBuilder canonicalHeaders = new StringBuilder();
        headers.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v).append('\n'));
        String names = String.join(";", headers.keySet());
        String canonicalRequest =
                method
                        + "\n"
                        + canonicalPath(rawPath)
                        + "\n"
                        + canonicalQuery(rawQuery)
                        + "\n"
                        + canonicalHeaders
                        + "\n"
                        + names
                        + "\n"
                        + payloadHash;
        String date = amzDate.substring(0, 8);
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String stringToSign =
                "AWS4-HMAC-SHA256\n"
                        + amzDate
                        + "\n"
                        + scope
                        + "\n"
                        + HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key =
                hmac(
                        ("AWS4" + credentials.secretAccessKey()).getBytes(StandardCharsets.UTF_8),
                        date);
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        String signature = HEX.formatHex(hmac(key, stringToSign));
        return "AWS4-HMAC-SHA256 Credential="
                + credentials.accessKeyId()
                + "/"
                + scope
                + ", SignedHeaders="
                + names
                + ", Signature="
                + signature;
    }

    /** Each segment of the path as sent, encoded again (every service but S3 wants it so). */
    static String canonicalPath(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "/";
        }
        List<String> segments = new ArrayList<>();
        for (String segment : rawPath.split("/", -1)) {
            segments.add(encode(segment));
        }
        return String.join("/", segments);
    }

    /** Parameters decoded, encoded the one RFC 3986 way, sorted by name and then value. */
    static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> pairs = new ArrayList<>();
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            String value = eq < 0 ? "" : part.substring(eq + 1);
            pairs.add(new String[] {encode(decode(name)), encode(decode(value))});
        }
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        List<String> out = new ArrayList<>();
        for (String[] p : pairs) {
            out.add(p[0] + "=" + p[1]);
        }
        return String.join("&", out);
    }

    /** RFC 3986: everything but letters, digits and {@code -_.~} as %XX of its UTF-8 bytes. */
    static String encode(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '~') {
                out.append(c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)));
                out.append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
