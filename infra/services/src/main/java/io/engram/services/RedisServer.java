package io.engram.services;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Redis 6.2 server. The binary is the linux-amd64 build shipped inside the {@code
 * com.github.codemonstur:embedded-redis} jar, copied once under the data directory.
 */
public final class RedisServer implements AutoCloseable {

    private static final String BINARY = "redis-server-6.2.6-v5-linux-amd64";
    private static final int ATTEMPTS = 3;

    private final ChildProcess process;
    private final int port;
    private final int tlsPort;

    private RedisServer(ChildProcess process, int port, int tlsPort) {
        this.process = process;
        this.port = port;
        this.tlsPort = tlsPort;
    }

    /** Starts a server with its files under {@code dir}; {@code persistent} keeps snapshots. */
    public static RedisServer start(Path dir, int preferredPort, boolean persistent) {
        return start(dir, preferredPort, persistent, null, "");
    }

    /**
     * A throwaway server that also listens for TLS ({@link #tlsUrl()}), with {@code tls} as its
     * certificate; clients are not asked for one.
     */
    public static RedisServer startWithTls(Path dir, SelfSignedCertificate tls) {
        return start(dir, 0, false, tls, "");
    }

    /** The ACL user of a server started with a password, besides the default user. */
    public static final String ACL_USER = "engram";

    /**
     * A throwaway server like {@link #startWithTls(Path, SelfSignedCertificate)} that admits no
     * client without {@code password}: as the default user, or as {@link #ACL_USER} with the
     * password reversed (so a test can tell which login it was).
     */
    public static RedisServer startWithTls(Path dir, SelfSignedCertificate tls, String password) {
        return start(dir, 0, false, tls, password);
    }

    private static RedisServer start(
            Path dir,
            int preferredPort,
            boolean persistent,
            SelfSignedCertificate tls,
            String password) {
        Path binary = extractBinary(dir);
        ServiceStartException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = FreePorts.preferOrFind(attempt == 0 ? preferredPort : 0);
            List<String> command = new ArrayList<>();
            command.add(binary.toString());
            command.addAll(
                    List.of(
                            "--port", String.valueOf(port),
                            "--bind", "127.0.0.1",
                            "--protected-mode", "yes",
                            "--daemonize", "no",
                            "--dir", dir.toString(),
                            "--appendonly", "no",
                            "--save", persistent ? "60 1" : ""));
            int tlsPort = tls == null ? -1 : FreePorts.find();
            if (tls != null) {
                command.addAll(
                        List.of(
                                "--tls-port", String.valueOf(tlsPort),
                                "--tls-cert-file", tls.certificate().toString(),
                                "--tls-key-file", tls.privateKey().toString(),
                                "--tls-ca-cert-file", tls.certificate().toString(),
                                "--tls-auth-clients", "no"));
            }
            if (!password.isEmpty()) {
                command.addAll(
                        List.of(
                                "--requirepass",
                                password,
                                "--user",
                                ACL_USER,
                                "on",
                                ">" + new StringBuilder(password).reverse(),
                                "~*",
                                "&*",
                                "+@all"));
            }
            ChildProcess process =
                    ChildProcess.startNative(
                            "redis", "TERM", command, Map.of(), dir.resolve("redis.log"));
            try {
                process.awaitReady(Duration.ofSeconds(30), () -> ping(port));
                return new RedisServer(process, port, tlsPort);
            } catch (ServiceStartException e) {
                process.close();
                failure = e;
            }
        }
        throw failure;
    }

    private static boolean ping(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] reply = new byte[7];
            int n = socket.getInputStream().read(reply);
            String answer = n > 0 ? new String(reply, 0, n, StandardCharsets.US_ASCII) : "";
            // A server with a password answers, but only that it wants one.
            return answer.startsWith("+PONG") || answer.startsWith("-NOAUTH");
        }
    }

    private static Path extractBinary(Path dir) {
        try {
            Files.createDirectories(dir);
            Path target = dir.resolve("redis-server");
            if (Files.isExecutable(target)) {
                return target;
            }
            try (InputStream in = RedisServer.class.getClassLoader().getResourceAsStream(BINARY)) {
                if (in == null) {
                    throw new ServiceStartException(
                            BINARY + " not on the classpath (embedded-redis jar missing)");
                }
                Path tmp = Files.createTempFile(dir, "redis-server", ".tmp");
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install the Redis binary under " + dir, e);
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** The TLS listener, if the server was started with one. */
    public String tlsUrl() {
        if (tlsPort < 0) {
            throw new IllegalStateException("this server was started without TLS");
        }
        return "rediss://127.0.0.1:" + tlsPort;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.close();
    }
}
