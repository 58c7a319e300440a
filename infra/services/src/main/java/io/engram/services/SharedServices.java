package io.engram.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One instance of each real service per JVM, for integration tests: started on first use under a
 * temporary directory, stopped and deleted when the JVM exits.
 */
public final class SharedServices {

    private static final Path HOME = createHome();
    private static PostgresServer postgres;
    private static KafkaBroker kafka;
    private static OpenSearchNode openSearch;
    private static RedisServer redis;

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(SharedServices::stopAll, "engram-shared-services"));
    }

    private SharedServices() {}

    public static synchronized PostgresServer postgres() {
        if (postgres == null) {
            postgres = PostgresServer.start(HOME.resolve("postgres"), 0, "engram", false);
        }
        return postgres;
    }

    public static synchronized KafkaBroker kafka() {
        if (kafka == null) {
            kafka = KafkaBroker.start(HOME.resolve("kafka"), 0, 0, "384m");
        }
        return kafka;
    }

    public static synchronized OpenSearchNode openSearch() {
        if (openSearch == null) {
            openSearch = OpenSearchNode.start(HOME.resolve("opensearch"), 0, "512m");
        }
        return openSearch;
    }

    public static synchronized RedisServer redis() {
        if (redis == null) {
            redis = RedisServer.start(HOME.resolve("redis"), 0, false);
        }
        return redis;
    }

    /** The temporary directory the services keep their data in. */
    public static Path home() {
        return HOME;
    }

    private static synchronized void stopAll() {
        for (AutoCloseable service : new AutoCloseable[] {redis, openSearch, kafka, postgres}) {
            if (service != null) {
                try {
                    service.close();
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }
        }
        deleteTree(HOME);
    }

    private static Path createHome() {
        try {
            return Files.createTempDirectory("engram-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes a directory and everything under it, best effort. */
    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: a temporary directory left behind is harmless.
        }
    }
}
