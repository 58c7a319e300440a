package io.engram.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server from the machine's own binaries, with its cluster under a directory of ours.
 *
 * <p>PostgreSQL refuses to run as root. As root the server runs in an unprivileged user namespace
 * ({@code unshare --user}), where it is "nobody" but still owns the files it creates, so the data
 * directory can stay where the caller wants it.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String SUPERUSER = "engram";
    private static final int ATTEMPTS = 3;

    private final ChildProcess process;
    private final int port;
    private final String password;

    private PostgresServer(ChildProcess process, int port, String password) {
        this.process = process;
        this.port = port;
        this.password = password;
    }

    /**
     * Starts (initialising on first use) a cluster under {@code dir}, creates {@code database} if
     * it is missing. {@code durable=false} turns off fsync for throwaway test clusters.
     */
    public static PostgresServer start(
            Path dir, int preferredPort, String database, boolean durable) {
        return start(dir, preferredPort, database, durable, null);
    }

    /**
     * A throwaway cluster that also accepts TLS, with {@code tls} as its certificate and key
     * (clients that ask for TLS get it; others still connect without).
     */
    public static PostgresServer startWithTls(
            Path dir, String database, SelfSignedCertificate tls) {
        return start(dir, 0, database, false, tls);
    }

    private static PostgresServer start(
            Path dir,
            int preferredPort,
            String database,
            boolean durable,
            SelfSignedCertificate tls) {
        Path bin = findBinaries();
        Path data = dir.resolve("data");
        String password = initialise(bin, dir, data);
        ServiceStartException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = FreePorts.preferOrFind(attempt == 0 ? preferredPort : 0);
            List<String> command = new ArrayList<>(unprivilegedPrefix());
            command.add(bin.resolve("postgres").toString());
            command.addAll(
                    List.of(
                            "-D", data.toString(),
                            "-p", String.valueOf(port),
                            "-c", "listen_addresses=127.0.0.1",
                            "-c", "unix_socket_directories=",
                            "-c", "max_connections=200",
                            "-c", "logging_collector=off"));
            if (tls != null) {
                command.addAll(
                        List.of(
                                "-c", "ssl=on",
                                "-c", "ssl_cert_file=" + tls.certificate(),
                                "-c", "ssl_key_file=" + tls.privateKey()));
            }
            if (!durable) {
                command.addAll(
                        List.of(
                                "-c", "fsync=off",
                                "-c", "synchronous_commit=off",
                                "-c", "full_page_writes=off"));
            }
            ChildProcess process =
                    ChildProcess.startNative(
                            "postgres", "INT", command, Map.of(), dir.resolve("postgres.log"));
            PostgresServer server = new PostgresServer(process, port, password);
            try {
                process.awaitReady(Duration.ofSeconds(60), () -> server.canConnect("postgres"));
                server.createDatabaseIfMissing(database);
                return server;
            } catch (ServiceStartException e) {
                process.close();
                failure = e;
            }
        }
        throw failure;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public int port() {
        return port;
    }

    public String user() {
        return SUPERUSER;
    }

    public String password() {
        return password;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), SUPERUSER, password);
    }

    private boolean canConnect(String database) throws SQLException {
        try (Connection c = connect(database)) {
            return c.isValid(2);
        }
    }

    private void createDatabaseIfMissing(String database) {
        if (!database.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("invalid database name: " + database);
        }
        try (Connection c = connect("postgres");
                Statement st = c.createStatement()) {
            try (ResultSet rs =
                    st.executeQuery(
                            "select 1 from pg_database where datname = '" + database + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            st.execute("create database " + database);
        } catch (SQLException e) {
            throw new ServiceStartException("cannot create database " + database, e);
        }
    }

    /** Runs initdb once; returns the superuser password (kept next to the cluster). */
    private static String initialise(Path bin, Path dir, Path data) {
        try {
            Files.createDirectories(dir);
            Path passwordFile = dir.resolve("superuser.password");
            if (Files.exists(data.resolve("PG_VERSION"))) {
                return Files.readString(passwordFile, StandardCharsets.UTF_8).trim();
            }
            byte[] secret = new byte[18];
            new SecureRandom().nextBytes(secret);
            String password = HexFormat.of().formatHex(secret);
            Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(
                    passwordFile, PosixFilePermissions.fromString("rw-------"));

            List<String> command = new ArrayList<>(unprivilegedPrefix());
            command.addAll(
                    List.of(
                            bin.resolve("initdb").toString(),
                            "-D",
                            data.toString(),
                            "-U",
                            SUPERUSER,
                            "--pwfile=" + passwordFile,
                            "--auth-host=scram-sha-256",
                            "--auth-local=peer",
                            "-E",
                            "UTF8",
                            "--no-locale",
                            "--no-sync"));
            Process initdb =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("initdb.log").toFile())
                            .start();
            if (!initdb.waitFor(120, TimeUnit.SECONDS) || initdb.exitValue() != 0) {
                initdb.destroyForcibly();
                throw new ServiceStartException(
                        "initdb failed; see "
                                + dir.resolve("initdb.log")
                                + ":\n"
                                + Files.readString(dir.resolve("initdb.log")));
            }
            return password;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot initialise PostgreSQL under " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceStartException("initdb interrupted");
        }
    }

    /** Root may not run PostgreSQL; an unprivileged user namespace makes it someone else. */
    private static List<String> unprivilegedPrefix() {
        if (!isRoot()) {
            return List.of();
        }
        return List.of("unshare", "--user");
    }

    private static boolean isRoot() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    /**
     * The server binaries: {@code ENGRAM_POSTGRES_BIN} if set, else the newest
     * /usr/lib/postgresql/N/bin, else the directory of {@code pg_ctl} on the PATH.
     */
    static Path findBinaries() {
        String configured = System.getenv("ENGRAM_POSTGRES_BIN");
        if (configured != null && !configured.isBlank()) {
            Path bin = Path.of(configured);
            if (Files.isExecutable(bin.resolve("postgres"))) {
                return bin;
            }
            throw new ServiceStartException(
                    "ENGRAM_POSTGRES_BIN=" + configured + " has no executable 'postgres'");
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Optional<Path> newest =
                        versions.map(v -> v.resolve("bin"))
                                .filter(b -> Files.isExecutable(b.resolve("postgres")))
                                .max(
                                        Comparator.comparingInt(
                                                b -> versionOf(b.getParent().getFileName())));
                if (newest.isPresent()) {
                    return newest.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(entry);
            if (Files.isExecutable(candidate.resolve("postgres"))
                    && Files.isExecutable(candidate.resolve("initdb"))) {
                return candidate;
            }
        }
        throw new ServiceStartException(
                "no PostgreSQL server binaries found (looked in ENGRAM_POSTGRES_BIN,"
                        + " /usr/lib/postgresql/*/bin and PATH); install postgresql");
    }

    private static int versionOf(Path name) {
        try {
            return Integer.parseInt(name.toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Ends the server at once, as a crash would: an immediate shutdown (SIGQUIT to the postmaster),
     * no checkpoint; the next start recovers from the write-ahead log.
     */
    public void crash(Path dir) {
        Path pidFile = dir.resolve("data").resolve("postmaster.pid");
        try {
            if (Files.exists(pidFile)) {
                String pid = Files.readAllLines(pidFile).get(0).trim();
                new ProcessBuilder("kill", "-QUIT", pid).inheritIO().start().waitFor();
            }
        } catch (IOException e) {
            throw new ServiceStartException("could not signal postgres: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.close();
    }

    @Override
    public void close() {
        process.close();
    }
}
