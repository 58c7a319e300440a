package io.engram.services;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** An OpenSearch 2.19 node with the k-NN plugin, in a JVM of its own. */
public final class OpenSearchNode implements AutoCloseable {

    private static final String MAIN = "io.engram.infra.opensearch.OpenSearchNodeMain";

    private final ChildProcess process;
    private final int httpPort;

    private OpenSearchNode(ChildProcess process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    /**
     * Starts a node with its data under {@code home}, serving HTTP on the first free port from
     * {@code preferredPort} (0: any free port).
     */
    public static OpenSearchNode start(Path home, int preferredPort, String heap) {
        int first = preferredPort > 0 ? preferredPort : FreePorts.find();
        List<String> command =
                ChildJvm.command(
                        "opensearch-node",
                        MAIN,
                        List.of(
                                "-Xms" + heap,
                                "-Xmx" + heap,
                                "-XX:+UseG1GC",
                                "-Djava.awt.headless=true",
                                "-Dlog4j2.disable.jmx=true",
                                "-Dlog4j.shutdownHookEnabled=false",
                                "-Dengram.log.file=" + home.resolve("logs/opensearch.log"),
                                "-Djava.io.tmpdir=" + home.resolve("tmp")),
                        List.of(
                                home.toString(),
                                String.valueOf(first),
                                String.valueOf(Math.min(65535, first + 100)),
                                "engram"));
        home.resolve("tmp").toFile().mkdirs();
        ChildProcess process =
                ChildProcess.startJvm("opensearch", command, Map.of(), home.resolve("process.log"));
        try {
            String ready = process.awaitReadyLine(Duration.ofSeconds(120));
            int port = Integer.parseInt(ready.substring(ready.indexOf('=') + 1).trim());
            OpenSearchNode node = new OpenSearchNode(process, port);
            node.awaitGreenOrYellow();
            return node;
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }

    private void awaitGreenOrYellow() {
        HttpClient client = HttpClient.newHttpClient();
        process.awaitReady(
                Duration.ofSeconds(60),
                () -> {
                    HttpResponse<String> response =
                            client.send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            url()
                                                                    + "/_cluster/health?wait_for_status=yellow&timeout=5s"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200;
                });
    }

    public String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    public int httpPort() {
        return httpPort;
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
