package io.engram.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * API key format and hashing. A key is {@code ek_} followed by 40 hex characters (160 random bits);
 * only its SHA-256 hash and a short display prefix are stored.
 */
public final class ApiKeys {

    private static final Pattern FORMAT = Pattern.compile("ek_[0-9a-f]{40}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {}

    public static String generate() {
        byte[] secret = new byte[20];
        RANDOM.nextBytes(secret);
        return "ek_" + HexFormat.of().formatHex(secret);
    }

    public static boolean isWellFormed(String key) {
        return key != null && FORMAT.matcher(key).matches();
    }

    /** Hex SHA-256 of the key: what the {@code api_keys} table stores. */
    public static String hash(String key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The first characters, safe to show in listings and logs. */
    public static String displayPrefix(String key) {
        return key.substring(0, Math.min(key.length(), 10));
    }
}
