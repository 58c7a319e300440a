package io.engram.infra.kafka;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single Kafka broker in KRaft mode (broker and controller in one node), run in a JVM of its own
 * by the services launcher.
 *
 * <p>Arguments: {@code <log dir> <broker port> <controller port>}. Formats the log directory on
 * first start (keeping its cluster id on later starts), prints {@code ENGRAM_READY
 * bootstrap=127.0.0.1:<port>} once the broker answers an admin request, and exits when its standard
 * input closes.
 */
public final class KafkaBrokerMain {

    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private KafkaBrokerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 6) {
            System.err.println(
                    "usage: KafkaBrokerMain <log-dir> <broker-port> <controller-port>"
                            + " [<tls-port> <pkcs12-key-store> <key-store-password>]");
            System.exit(2);
        }
        Path logDir = Path.of(args[0]).toAbsolutePath();
        int brokerPort = Integer.parseInt(args[1]);
        int controllerPort = Integer.parseInt(args[2]);
        Files.createDirectories(logDir);

        Properties props = brokerProperties(logDir, brokerPort, controllerPort);
        if (args.length == 6) {
            addTlsListener(props, Integer.parseInt(args[3]), args[4], args[5]);
        }
        KafkaConfig config = new KafkaConfig(props, false);
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            new Formatter()
                    .setPrintStream(System.err)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setNodeId(1)
                    .setDirectories(List.of(logDir.toString()))
                    .setMetadataLogDirectory(logDir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .run();
        }

        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    server.shutdown();
                                    server.awaitShutdown();
                                },
                                "kafka-broker-shutdown"));
        server.startup();

        String bootstrap = "127.0.0.1:" + brokerPort;
        awaitBrokerAnswers(bootstrap, Duration.ofSeconds(60));
        System.out.println("ENGRAM_READY bootstrap=" + bootstrap);
        System.out.flush();
        exitWhenStdinCloses();
    }

    static Properties brokerProperties(Path logDir, int brokerPort, int controllerPort) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put(
                "listeners",
                "PLAINTEXT://127.0.0.1:"
                        + brokerPort
                        + ","
                        + CONTROLLER_LISTENER
                        + "://127.0.0.1:"
                        + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("controller.listener.names", CONTROLLER_LISTENER);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", logDir.toString());
        props.put("metadata.log.dir", logDir.toString());
        props.put("num.partitions", "4");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "4");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "4");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("auto.create.topics.enable", "false");
        props.put("log.flush.interval.messages", "10000");
        return props;
    }

    /** A second client listener that speaks TLS only, with the key store's certificate. */
    static void addTlsListener(Properties props, int port, String keyStore, String password) {
        String listener = "SSL://127.0.0.1:" + port;
        props.put("listeners", props.getProperty("listeners") + "," + listener);
        props.put(
                "advertised.listeners", props.getProperty("advertised.listeners") + "," + listener);
        props.put(
                "listener.security.protocol.map",
                props.getProperty("listener.security.protocol.map") + ",SSL:SSL");
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", keyStore);
        props.put("ssl.keystore.password", password);
    }

    private static void awaitBrokerAnswers(String bootstrap, Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        Exception last = null;
        try (Admin admin =
                Admin.create(
                        Map.of(
                                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000))) {
            while (Instant.now().isBefore(deadline)) {
                try {
                    admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                    return;
                } catch (Exception e) {
                    last = e;
                    Thread.sleep(100);
                }
            }
        }
        throw new IllegalStateException("broker did not answer within " + timeout, last);
    }

    private static void exitWhenStdinCloses() throws Exception {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        while (in.read(buffer) >= 0) {
            // Input is only a lifeline; its content is ignored.
        }
        System.exit(0);
    }
}
