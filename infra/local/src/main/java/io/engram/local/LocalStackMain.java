package io.engram.local;

import io.engram.config.ConfigException;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.process.UntilStopped;
import io.engram.services.ServiceStartException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code engram-local [--config engram.yaml]}: starts the local stack, prints how to use it and
 * runs until Ctrl-C, which stops everything cleanly.
 */
public final class LocalStackMain {

    private LocalStackMain() {}

    public static void main(String[] args) throws InterruptedException {
        Optional<Path> file = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                file = Optional.of(Path.of(args[++i]));
            } else {
                System.err.println("usage: engram-local [--config engram.yaml]");
                System.exit(2);
            }
        }
        EngramConfig config;
        try {
            config = ConfigLoader.load(file, System.getenv());
        } catch (ConfigException e) {
            System.err.println("engram: " + e.getMessage());
            System.exit(2);
            return;
        }

        LocalStack stack;
        try {
            stack = LocalStack.start(config);
        } catch (ServiceStartException | IllegalStateException e) {
            System.err.println("engram: local stack failed to start: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.println(banner(stack));
        System.out.flush();
        UntilStopped.await("engram", stack);
    }

    static String banner(LocalStack stack) {
        EngramConfig c = stack.config();
        return String.join(
                "\n",
                "",
                "Engram local stack is up in " + stack.startupTime().toMillis() + " ms",
                "  API          " + stack.url(),
                "  API key      "
                        + stack.apiKey()
                        + "   (admin; set ENGRAM_BOOTSTRAP_KEY to choose it)",
                "  data         " + c.home(),
                "  postgres     " + c.postgres().url(),
                "  kafka        " + c.kafka().bootstrapServers(),
                "  opensearch   " + c.openSearch().url(),
                "  redis        " + c.redis().url(),
                "",
                "Try:",
                "  curl -s -H 'Authorization: Bearer "
                        + stack.apiKey()
                        + "' "
                        + stack.url()
                        + "/health/ready",
                "",
                "Ctrl-C stops everything.",
                "");
    }
}
