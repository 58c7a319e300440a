package io.engram.client;

import io.engram.client.model.Memory;
import io.engram.client.model.SearchRequest;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.local.LocalStack;
import io.engram.services.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** The whole local stack for a client test, and waiting for what it extracts. */
public final class TestStacks {

    private TestStacks() {}

    /** A local stack on free ports with its own home, with these settings on top. */
    public static LocalStack start(String name, Map<String, String> settings) throws Exception {
        Path home = Files.createTempDirectory("engram-" + name);
        Map<String, String> env = new HashMap<>(LocalStack.freePortSettings(home));
        String hex = Integer.toHexString(name.hashCode() | 1);
        env.put("ENGRAM_BOOTSTRAP_KEY", "ek_" + hex.repeat(40).substring(0, 40));
        env.putAll(settings);
        EngramConfig config = ConfigLoader.load(Optional.empty(), env);
        return LocalStack.start(config);
    }

    /**
     * Settings under which every exchange (two turns) is a whole extraction window: its memories
     * come at once instead of after five exchanges or the end of the session.
     */
    public static Map<String, String> exchangeWindows() {
        return Map.of(
                "ENGRAM_EXTRACTION_WINDOW_TURNS", "2", "ENGRAM_EXTRACTION_OVERLAP_TURNS", "1");
    }

    /** The first memory of the user's recall for {@code query} whose words contain {@code text}. */
    public static Memory awaitMemory(EngramClient engram, String user, String query, String text) {
        SearchRequest q = SearchRequest.of(user, query).forced();
        AtomicReference<Memory> found = new AtomicReference<>();
        boolean heard =
                Await.until(
                        Duration.ofSeconds(60),
                        () -> {
                            engram.search(q).memories().stream()
                                    .filter(m -> m.content().contains(text))
                                    .findFirst()
                                    .ifPresent(found::set);
                            return found.get() != null;
                        });
        if (!heard) {
            throw new AssertionError("no memory of " + user + " with '" + text + "' in 60 s");
        }
        return found.get();
    }
}
