package io.engram.services;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A single-node Kafka 4.2 broker in KRaft mode, in a JVM of its own. */
public final class KafkaBroker implements AutoCloseable {

    private static final String MAIN = "io.engram.infra.kafka.KafkaBrokerMain";
    private static final int ATTEMPTS = 3;

    private final ChildProcess process;
    private final String bootstrapServers;

    private KafkaBroker(ChildProcess process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Starts a broker with its log under {@code dir}; ports are the preferred ones when free (0:
     * any free port).
     */
    public static KafkaBroker start(
            Path dir, int preferredPort, int preferredControllerPort, String heap) {
        ServiceStartException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = FreePorts.preferOrFind(attempt == 0 ? preferredPort : 0);
            int controllerPort = FreePorts.preferOrFind(attempt == 0 ? preferredControllerPort : 0);
            if (controllerPort == port) {
                controllerPort = FreePorts.find();
            }
            List<String> command =
                    ChildJvm.command(
                            "kafka-broker",
                            MAIN,
                            List.of(
                                    "-Xms" + heap,
                                    "-Xmx" + heap,
                                    "-XX:+UseG1GC",
                                    "-Djava.awt.headless=true",
                                    "-Dlog4j2.disable.jmx=true",
                                    "-Dengram.log.file=" + dir.resolve("logs/kafka.log")),
                            List.of(
                                    dir.resolve("data").toString(),
                                    String.valueOf(port),
                                    String.valueOf(controllerPort)));
            ChildProcess process =
                    ChildProcess.startJvm("kafka", command, Map.of(), dir.resolve("process.log"));
            try {
                String ready = process.awaitReadyLine(Duration.ofSeconds(90));
                return new KafkaBroker(process, ready.substring(ready.indexOf('=') + 1).trim());
            } catch (ServiceStartException e) {
                process.close();
                failure = e;
            }
        }
        throw failure;
    }

    public String bootstrapServers() {
        return bootstrapServers;
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
