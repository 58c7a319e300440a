package io.engram.serving;

import io.engram.config.ConfigException;
import io.engram.config.ConfigKey;
import io.engram.config.ConfigKeys;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.process.UntilStopped;
import io.engram.store.StorageBootstrap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The serving tier on its own, against PostgreSQL, Kafka, OpenSearch and Redis that run elsewhere
 * (a production deployment; {@code bin/engram-local} runs its own):
 *
 * <pre>
 * java -jar engram-serving.jar [--config engram.yaml] [serve] [--prepare]
 * java -jar engram-serving.jar [--config engram.yaml] prepare
 * </pre>
 *
 * {@code prepare} migrates the schema, creates the topics and the memory index if missing and, when
 * {@code ENGRAM_BOOTSTRAP_KEY} is set, registers that key as an admin key of tenant {@value
 * #BOOTSTRAP_TENANT}, then exits; run it once per release (a Kubernetes Job) before the new serving
 * pods. {@code serve --prepare} does both in one process. SIGTERM stops accepting, lets the
 * requests in flight finish, flushes the recall bookkeeping and exits (status 143, the JVM's for
 * SIGTERM).
 */
public final class ServingMain {

    static final String USAGE =
            "usage: engram-serving [--config engram.yaml] [serve [--prepare] | prepare]";

    /** The tenant of the deployment's first admin key. */
    static final String BOOTSTRAP_TENANT = "default";

    private ServingMain() {}

    public static void main(String[] args) throws InterruptedException {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "engram-serving-log4j2.properties");
        }
        Optional<Path> file = Optional.empty();
        String command = "serve";
        boolean prepare = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--config" -> {
                    if (i + 1 == args.length) {
                        exit(2, USAGE);
                    }
                    file = Optional.of(Path.of(args[++i]));
                }
                case "serve", "prepare" -> command = args[i];
                case "--prepare" -> prepare = true;
                default -> exit(2, "unknown argument '" + args[i] + "'\n" + USAGE);
            }
        }
        EngramConfig config;
        try {
            config = ConfigLoader.load(file, System.getenv());
            requireServices(config);
        } catch (ConfigException e) {
            exit(2, e.getMessage());
            return;
        }
        if (command.equals("prepare") || prepare) {
            try {
                System.out.println("engram-serving: storage ready: " + prepare(config));
            } catch (RuntimeException e) {
                exit(1, "cannot prepare the stores: " + e.getMessage());
            }
            if (command.equals("prepare")) {
                return;
            }
        }
        serve(config);
    }

    /** Prepares the stores and registers the bootstrap key, if one is configured. */
    static StorageBootstrap.Result prepare(EngramConfig config) {
        StorageBootstrap.Result result = StorageBootstrap.prepare(config);
        config.auth()
                .bootstrapKey()
                .ifPresent(
                        key ->
                                StorageBootstrap.registerAdminKey(
                                        config.postgres(),
                                        key,
                                        BOOTSTRAP_TENANT,
                                        "default",
                                        "production"));
        return result;
    }

    private static void serve(EngramConfig config) throws InterruptedException {
        ServingApp app;
        try {
            app = ServingApp.start(config);
        } catch (RuntimeException e) {
            exit(1, "cannot start: " + e.getMessage());
            return;
        }
        System.out.println(
                "engram-serving: listening on " + config.server().host() + ":" + app.port());
        System.out.flush();
        UntilStopped.await("engram-serving", app);
    }

    /**
     * The services must be named: their empty defaults mean "the local stack's own", which this
     * process does not start.
     */
    static void requireServices(EngramConfig config) {
        Map<ConfigKey<String>, String> named = new LinkedHashMap<>();
        named.put(ConfigKeys.POSTGRES_URL, config.postgres().url());
        named.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS, config.kafka().bootstrapServers());
        named.put(ConfigKeys.OPENSEARCH_URL, config.openSearch().url());
        named.put(ConfigKeys.REDIS_URL, config.redis().url());
        List<String> missing = new ArrayList<>();
        named.forEach(
                (key, value) -> {
                    if (value.isEmpty()) {
                        missing.add(key.name() + " (" + key.env() + ")");
                    }
                });
        if (!missing.isEmpty()) {
            throw new ConfigException(
                    "engram-serving uses services that run elsewhere; not set: "
                            + String.join(", ", missing)
                            + " (bin/engram-local runs a stack with its own)");
        }
    }

    private static void exit(int status, String message) {
        System.err.println("engram-serving: " + message);
        System.exit(status);
    }
}
