package io.engram.local;

import io.engram.auth.ApiKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * The local stack's admin API key: {@code ENGRAM_BOOTSTRAP_KEY} when set, else one generated on
 * first start and kept (mode 600) under ENGRAM_HOME so every start prints the same key. Only its
 * hash goes into the database.
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

    /** Stores the key's hash as an admin key of the local tenant, once. */
    static void register(String jdbcUrl, String user, String password, String key) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password);
                PreparedStatement st =
                        c.prepareStatement(
                                "insert into api_keys (id, key_prefix, key_hash, tenant_id, project_id,"
                                        + " environment, scopes, name) values (?, ?, ?, ?, ?, ?,"
                                        + " array['read', 'write', 'admin'], 'bootstrap')"
                                        + " on conflict (key_hash) do nothing")) {
            st.setObject(1, UUID.randomUUID());
            st.setString(2, ApiKeys.displayPrefix(key));
            st.setString(3, ApiKeys.hash(key));
            st.setString(4, TENANT);
            st.setString(5, PROJECT);
            st.setString(6, ENVIRONMENT);
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot register the bootstrap API key: " + e.getMessage(), e);
        }
    }
}
