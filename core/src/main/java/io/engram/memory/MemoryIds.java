package io.engram.memory;

import io.engram.text.Text;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Deterministic memory ids: a memory made from conversation is named by its tenant, user, source
 * turns and normalised content, so replaying the same turns can never create a second copy.
 */
public final class MemoryIds {

    private MemoryIds() {}

    public static UUID fromConversation(Scope scope, List<String> sourceTurnIds, String content) {
        StringBuilder key = scopeKey("conversation", scope);
        for (String turn : new TreeSet<>(sourceTurnIds)) {
            key.append(turn).append('\u0001');
        }
        key.append('\u0000').append(Text.normalizeForHash(content));
        return nameUuid(key.toString());
    }

    /**
     * The id of the memory consolidating {@code originals}: the same originals always fold into the
     * same id, so a repeated run adds nothing.
     */
    public static UUID fromConsolidation(Scope scope, List<UUID> originals) {
        StringBuilder key = scopeKey("consolidation", scope);
        originals.stream()
                .map(UUID::toString)
                .sorted()
                .forEach(o -> key.append(o).append('\u0001'));
        return nameUuid(key.toString());
    }

    private static StringBuilder scopeKey(String kind, Scope scope) {
        return new StringBuilder(kind)
                .append('\u0000')
                .append(scope.tenantId())
                .append('\u0000')
                .append(scope.projectId())
                .append('\u0000')
                .append(scope.environment())
                .append('\u0000')
                .append(scope.userId())
                .append('\u0000');
    }

    /** Hex SHA-256 of the normalised content: the exact-duplicate key stored with a memory. */
    public static String contentHash(String content) {
        return hex(sha256(Text.normalizeForHash(content)));
    }

    /** A version-8 style UUID from the first 16 bytes of SHA-256 of {@code name}. */
    public static UUID nameUuid(String name) {
        byte[] h = sha256(name);
        h[6] = (byte) ((h[6] & 0x0f) | 0x80);
        h[8] = (byte) ((h[8] & 0x3f) | 0x80);
        ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
        return new UUID(b.getLong(), b.getLong());
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }
}
