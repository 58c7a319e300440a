package io.engram.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A secret kept in a file (a mounted Kubernetes secret, a file a sidecar rewrites on rotation): the
 * file holds the secret itself, or the JSON of a Secrets Manager secret such as the one RDS
 * manages, whose {@code password} field is the secret.
 */
public final class SecretFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SecretFile() {}

    /**
     * The file's content without a trailing line break; {@code key} names the setting in the error
     * when the file cannot be read (the message never holds the content).
     */
    public static String read(String key, String path) {
        try {
            String s = Files.readString(Path.of(path), StandardCharsets.UTF_8);
            int end = s.length();
            while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
                end--;
            }
            String secret = s.substring(0, end);
            if (!secret.startsWith("{")) {
                return secret;
            }
            JsonNode password = JSON.readTree(secret).path("password");
            if (!password.isTextual()) {
                throw new IllegalArgumentException(
                        key + ": " + path + " holds JSON without a \"password\" string");
            }
            return password.asText();
        } catch (JsonProcessingException e) {
            // The parser's message quotes the content.
            throw new IllegalArgumentException(
                    key + ": " + path + " starts with '{' but is not JSON");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    key + ": " + path + " cannot be read (" + e.getClass().getSimpleName() + ")",
                    e);
        }
    }
}
