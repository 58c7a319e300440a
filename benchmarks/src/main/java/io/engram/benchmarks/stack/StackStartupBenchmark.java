package io.engram.benchmarks.stack;

import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.local.LocalStack;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Measures how long the whole local stack takes to start (services, migrations, topics, index,
 * Flink mini cluster, serving tier answering) on a fresh ENGRAM_HOME and on restarts of an existing
 * one, and how long it takes to stop. Prints the figures and writes them to a Markdown file.
 *
 * <p>{@code java ... StackStartupBenchmark [runs] [output.md]}
 */
public final class StackStartupBenchmark {

    private StackStartupBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path output = Path.of(args.length > 1 ? args[1] : "benchmarks/results/stack-startup.md");
        List<Long> cold = new ArrayList<>();
        List<Long> warm = new ArrayList<>();
        List<Long> stop = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            Path home = Files.createTempDirectory("engram-startup-");
            try {
                cold.add(startStop(home, stop));
                warm.add(startStop(home, stop));
            } finally {
                delete(home);
            }
            System.out.printf(
                    "run %d: fresh home %d ms, restart %d ms%n",
                    run + 1, cold.get(run), warm.get(run));
        }
        String report =
                String.join(
                        "\n",
                        "# Local stack start-up time",
                        "",
                        "Command: `./mvnw -q -pl benchmarks -am install -DskipTests && java -cp \"benchmarks/target/classes:$(cat benchmarks/target/runtime.classpath)\" io.engram.benchmarks.stack.StackStartupBenchmark "
                                + runs
                                + "`",
                        "",
                        "Machine: "
                                + Runtime.getRuntime().availableProcessors()
                                + " cores, Java "
                                + System.getProperty("java.version")
                                + ", host "
                                + InetAddress.getLocalHost().getHostName()
                                + "; date "
                                + LocalDate.now(),
                        "",
                        "Time from `LocalStack.start` until the API answers, with PostgreSQL, Kafka,"
                                + " OpenSearch and Redis up, migrations applied, topics and index present,"
                                + " the Flink mini cluster running. "
                                + runs
                                + " runs each.",
                        "",
                        "| case | median ms | min ms | max ms |",
                        "|---|---|---|---|",
                        row("fresh ENGRAM_HOME (initdb, format, create)", cold),
                        row("restart on existing data", warm),
                        row("stop (Ctrl-C path)", stop),
                        "");
        System.out.println(report);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, report);
    }

    private static long startStop(Path home, List<Long> stopTimes) {
        Map<String, String> env = LocalStack.freePortSettings(home);
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        LocalStack stack = LocalStack.start(config);
        long started = stack.startupTime().toMillis();
        long t0 = System.nanoTime();
        stack.close();
        stopTimes.add((System.nanoTime() - t0) / 1_000_000);
        return started;
    }

    private static String row(String name, List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return "| "
                + name
                + " | "
                + sorted.get(sorted.size() / 2)
                + " | "
                + sorted.get(0)
                + " | "
                + sorted.get(sorted.size() - 1)
                + " |";
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
