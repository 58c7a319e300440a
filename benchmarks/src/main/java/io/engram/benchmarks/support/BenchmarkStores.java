package io.engram.benchmarks.support;

import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.local.LocalStack;
import io.engram.services.LocalServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** The real services a benchmark runs against, in a temporary home it removes afterwards. */
public final class BenchmarkStores {

    private BenchmarkStores() {}

    /** PostgreSQL, Kafka, OpenSearch and Redis on free ports under {@code home}. */
    public static LocalServices start(Path home, String openSearchHeap, String kafkaHeap) {
        return LocalServices.start(
                new LocalServices.Spec(
                        home, "engram", 0, 0, 0, 0, 0, openSearchHeap, kafkaHeap, true));
    }

    /**
     * The {@code ENGRAM_*} variables of the benchmark's own environment (the embedding version,
     * say): they hold under the benchmark's settings, so one command measures another setup.
     */
    public static Map<String, String> callerSettings() {
        Map<String, String> out = new HashMap<>();
        System.getenv()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("ENGRAM_")) {
                                out.put(k, v);
                            }
                        });
        return out;
    }

    /** The caller's settings as they prefix the benchmark command in a report ("" if none). */
    public static String commandPrefix() {
        StringBuilder out = new StringBuilder();
        new java.util.TreeMap<>(callerSettings())
                .forEach((k, v) -> out.append(k).append('=').append(v).append(' '));
        return out.toString();
    }

    /**
     * The configuration for the running services: the caller's settings, then {@code settings}
     * ({@code ENGRAM_*} variables) on top; storage prepared: schema, topics, index alias.
     */
    public static EngramConfig prepare(
            Path home, LocalServices services, Map<String, String> settings) {
        Map<String, String> env = callerSettings();
        env.putAll(settings);
        env.put("ENGRAM_HOME", home.toString());
        EngramConfig config =
                LocalStack.pointAt(ConfigLoader.load(Optional.empty(), env), services);
        LocalStack.prepareStorage(config);
        return config;
    }

    /** "N cores, Java V; date D": the machine line of a results page. */
    public static String machine() {
        return Runtime.getRuntime().availableProcessors()
                + " cores, Java "
                + System.getProperty("java.version")
                + "; date "
                + java.time.LocalDate.now();
    }

    /** Removes a benchmark's temporary home and everything in it. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
