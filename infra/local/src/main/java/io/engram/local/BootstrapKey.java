package io.engram.local;

import io.engram.auth.ApiKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The local stack's admin API key: {@code ENGRAM_BOOTSTRAP_KEY} when set, else one generated on
 * first start and kept (mode 600) under ENGRAM_HOME so every start prints the same key. Only its
 * hash goes into the database ({@code StorageBootstrap.registerAdminKey}).
 */
final class BootstrapKey {

    static final String TENANT = "local";
    static final String PROJECT = "default";
    static final String ENVIRONMENT = "development";

    private BootstrapKey() {}

    static String resolve(Optional<String> configured, Path home) {
        if (configured.isPresent()) {
            return configured.get();
        }
        Path file = home.resolve("bootstrap.key");
        try {
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).trim();
            }
            String key = ApiKeys.generate();
            Files.writeString(file, key + "\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the bootstrap key in " + file, e);
        }
    }
}
