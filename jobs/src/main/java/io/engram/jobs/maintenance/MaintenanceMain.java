package io.engram.jobs.maintenance;

import io.engram.cache.RedisConnection;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.jobs.store.CacheGenerations;
import io.engram.jobs.store.RedisConnections;
import io.engram.memory.Scope;
import io.engram.store.Archives;
import io.engram.store.opensearch.OpenSearchClients;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;

/**
 * The maintenance command line, in-process or under {@code flink run}:
 *
 * <pre>
 * MaintenanceMain decay|consolidate|retention|quota|reindex [--tenant T] [--as-of 2026-01-01T00:00:00Z]
 * MaintenanceMain requested                       (runs every run requested through the API)
 * MaintenanceMain restore ID --tenant T --user U [--project P] [--environment E]
 * </pre>
 *
 * Services come from the configuration ({@code ENGRAM_CONFIG}, {@code ENGRAM_*} variables).
 */
public final class MaintenanceMain {

    private MaintenanceMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.getenv()));
    }

    static int run(String[] args, Map<String, String> env) throws Exception {
        if (args.length == 0 || args[0].equals("--help")) {
            System.err.println(usage());
            return args.length == 0 ? 2 : 0;
        }
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                if (i + 1 >= args.length) {
                    System.err.println("option " + args[i] + " needs a value\n" + usage());
                    return 2;
                }
                options.put(args[i].substring(2), args[++i]);
            } else {
                positional.add(args[i]);
            }
        }
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        if (config.postgres().url().isEmpty() || config.openSearch().url().isEmpty()) {
            System.err.println(
                    "ENGRAM_POSTGRES_URL and ENGRAM_OPENSEARCH_URL must point at the running"
                            + " services (bin/engram-maintenance reads them from a running local stack)");
            return 2;
        }
        MaintenanceSettings settings = MaintenanceSettings.from(config);
        MaintenanceRunner runner = new MaintenanceRunner(settings, MaintenanceRunner.inProcess());
        switch (args[0]) {
            case "requested" -> {
                Optional<MaintenanceReport> r;
                while ((r = runner.runNextRequested()).isPresent()) {
                    System.out.println(r.get().toJson().toPrettyString());
                }
                return 0;
            }
            case "restore" -> {
                return restore(config, positional, options);
            }
            default -> {
                MaintenanceKind job;
                try {
                    job = MaintenanceKind.fromWire(args[0]);
                } catch (IllegalArgumentException e) {
                    System.err.println(e.getMessage() + "\n" + usage());
                    return 2;
                }
                Instant asOf =
                        options.containsKey("as-of")
                                ? Instant.parse(options.get("as-of"))
                                : Instant.now();
                MaintenanceReport report = runner.run(job, options.get("tenant"), asOf, "cli");
                System.out.println(report.toJson().toPrettyString());
                return 0;
            }
        }
    }

    private static int restore(
            EngramConfig config, List<String> positional, Map<String, String> options)
            throws Exception {
        if (positional.size() != 1
                || !options.containsKey("tenant")
                || !options.containsKey("user")) {
            System.err.println("restore needs an id, --tenant and --user\n" + usage());
            return 2;
        }
        UUID id = UUID.fromString(positional.get(0));
        Scope scope =
                new Scope(
                        options.get("tenant"),
                        options.getOrDefault("project", "default"),
                        options.getOrDefault("environment", "production"),
                        options.get("user"));
        OpenSearchClient openSearch =
                OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(60));
        try (Connection c = TaskContext.connect(MaintenanceSettings.from(config));
                OnnxEmbedder embedder =
                        OnnxEmbedder.load(
                                ModelSpec.forVersion(config.embedding().version()),
                                config.embedding().modelPath(config.home()),
                                config.embedding().intraOpThreads())) {
            Optional<Archives.Restored> restored =
                    Archives.restore(
                            c,
                            openSearch,
                            config.memoryIndexAlias(),
                            scope,
                            id,
                            text -> embedder.embed(List.of(text)).get(0));
            if (restored.isEmpty()) {
                System.err.println("nothing archived with id " + id + " in " + scope);
                return 1;
            }
            try (RedisConnection redis = RedisConnections.open(config.redis())) {
                CacheGenerations.bumpAsOtherWriter(redis, List.of(scope));
            }
            restored.get()
                    .memories()
                    .forEach(m -> System.out.println("restored " + m.id() + ": " + m.content()));
            restored.get().removed().ifPresent(r -> System.out.println("removed " + r));
            return 0;
        }
    }

    private static String usage() {
        StringBuilder s =
                new StringBuilder("usage: engram-maintenance JOB [--tenant T] [--as-of INSTANT]\n");
        for (MaintenanceKind k : MaintenanceKind.values()) {
            s.append(String.format("  %-12s %s%n", k.wireName(), k.description()));
        }
        s.append("  requested    run every run requested through the admin API\n");
        s.append("  restore ID --tenant T --user U [--project P] [--environment E]\n");
        s.append(
                "               bring an archived memory (or a consolidated memory's originals) back");
        return s.toString();
    }
}
