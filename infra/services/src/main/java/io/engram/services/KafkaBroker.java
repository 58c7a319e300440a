package io.engram.services;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A single-node Kafka 4.2 broker in KRaft mode, in a JVM of its own. */
public final class KafkaBroker implements AutoCloseable {

    private static final String MAIN = "io.engram.infra.kafka.KafkaBrokerMain";
    private static final int ATTEMPTS = 3;

    /** The SCRAM-SHA-512 login a broker started with TLS knows on its SASL_SSL listener. */
    public static final String SCRAM_USER = "engram";

    public static final String SCRAM_PASSWORD = "throwaway-scram-password";

    private final ChildProcess process;
    private final String bootstrapServers;
    private final int tlsPort;
    private final int saslPort;

    private KafkaBroker(ChildProcess process, String bootstrapServers, int tlsPort, int saslPort) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.tlsPort = tlsPort;
        this.saslPort = saslPort;
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
     * #tlsBootstrapServers()}) and one speaking TLS that wants the SCRAM login {@link #SCRAM_USER}
     * ({@link #saslBootstrapServers()}), with {@code tls} as their certificate.
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
            int saslPort = tls == null ? -1 : FreePorts.find();
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
                            arguments(dir, port, controllerPort, tlsPort, saslPort, tls));
            ChildProcess process =
                    ChildProcess.startJvm("kafka", command, Map.of(), dir.resolve("process.log"));
            try {
                String ready = process.awaitReadyLine(Duration.ofSeconds(90));
                return new KafkaBroker(
                        process, ready.substring(ready.indexOf('=') + 1).trim(), tlsPort, saslPort);
            } catch (ServiceStartException e) {
                process.close();
                failure = e;
            }
        }
        throw failure;
    }

    private static List<String> arguments(
            Path dir,
            int port,
            int controllerPort,
            int tlsPort,
            int saslPort,
            SelfSignedCertificate tls) {
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
                            SelfSignedCertificate.KEY_STORE_PASSWORD,
                            String.valueOf(saslPort),
                            SCRAM_USER,
                            SCRAM_PASSWORD,
                            tls.certificate().toString()));
        }
        return args;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The listener that speaks TLS only, if the broker was started with one. */
    public String tlsBootstrapServers() {
        return withTls(tlsPort);
    }

    /** The listener that speaks TLS and wants the SCRAM login, if the broker has TLS. */
    public String saslBootstrapServers() {
        return withTls(saslPort);
    }

    private static String withTls(int port) {
        if (port < 0) {
            throw new IllegalStateException("this broker was started without TLS");
        }
        return "127.0.0.1:" + port;
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
