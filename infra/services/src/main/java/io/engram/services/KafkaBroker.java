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
    private final String tlsBootstrapServers;

    private KafkaBroker(ChildProcess process, String bootstrapServers, String tlsBootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.tlsBootstrapServers = tlsBootstrapServers;
    }

    /**
     * Starts a broker with its log under {@code dir}; ports are the preferred ones when free (0:
     * any free port).
     */
    public static KafkaBroker start(
            Path dir, int preferredPort, int preferredControllerPort, String heap) {
        return start(dir, preferredPort, preferredControllerPort, heap, null);
    }

    /**
     * A throwaway broker that also has a listener speaking TLS only ({@link
     * #tlsBootstrapServers()}), with {@code tls} as its certificate.
     */
    public static KafkaBroker startWithTls(Path dir, String heap, SelfSignedCertificate tls) {
        return start(dir, 0, 0, heap, tls);
    }

    private static KafkaBroker start(
            Path dir,
            int preferredPort,
            int preferredControllerPort,
            String heap,
            SelfSignedCertificate tls) {
        ServiceStartException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = FreePorts.preferOrFind(attempt == 0 ? preferredPort : 0);
            int controllerPort = FreePorts.preferOrFind(attempt == 0 ? preferredControllerPort : 0);
            if (controllerPort == port) {
                controllerPort = FreePorts.find();
            }
            int tlsPort = tls == null ? -1 : FreePorts.find();
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
                            arguments(dir, port, controllerPort, tlsPort, tls));
            ChildProcess process =
                    ChildProcess.startJvm("kafka", command, Map.of(), dir.resolve("process.log"));
            try {
                String ready = process.awaitReadyLine(Duration.ofSeconds(90));
                return new KafkaBroker(
                        process,
                        ready.substring(ready.indexOf('=') + 1).trim(),
                        tls == null ? null : "127.0.0.1:" + tlsPort);
            } catch (ServiceStartException e) {
                process.close();
                failure = e;
            }
        }
        throw failure;
    }

    private static List<String> arguments(
            Path dir, int port, int controllerPort, int tlsPort, SelfSignedCertificate tls) {
        List<String> args =
                new java.util.ArrayList<>(
                        List.of(
                                dir.resolve("data").toString(),
                                String.valueOf(port),
                                String.valueOf(controllerPort)));
        if (tls != null) {
            args.addAll(
                    List.of(
                            String.valueOf(tlsPort),
                            tls.keyStore().toString(),
                            SelfSignedCertificate.KEY_STORE_PASSWORD));
        }
        return args;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The listener that speaks TLS only, if the broker was started with one. */
    public String tlsBootstrapServers() {
        if (tlsBootstrapServers == null) {
            throw new IllegalStateException("this broker was started without TLS");
        }
        return tlsBootstrapServers;
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
