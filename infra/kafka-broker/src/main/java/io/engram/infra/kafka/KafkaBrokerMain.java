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
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single Kafka broker in KRaft mode (broker and controller in one node), run in a JVM of its own
 * by the services launcher.
 *
 * <p>Arguments: {@code <log dir> <broker port> <controller port>}, then optionally the TLS
 * listeners: {@code <tls port> <pkcs12 key store> <key store password>} (SSL) and {@code <sasl
 * port> <user> <password> <ca pem>} (SASL_SSL with SCRAM-SHA-512; the user is created on start).
 * Formats the log directory on first start (keeping its cluster id on later starts), prints {@code
 * ENGRAM_READY bootstrap=127.0.0.1:<port>} once the broker answers an admin request on every
 * listener, and exits when its standard input closes.
 */
public final class KafkaBrokerMain {

    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private KafkaBrokerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 6 && args.length != 10) {
            System.err.println(
                    "usage: KafkaBrokerMain <log-dir> <broker-port> <controller-port>"
                            + " [<tls-port> <pkcs12-key-store> <key-store-password>"
                            + " [<sasl-ssl-port> <scram-user> <scram-password> <ca-pem>]]");
            System.exit(2);
        }
        Path logDir = Path.of(args[0]).toAbsolutePath();
        int brokerPort = Integer.parseInt(args[1]);
        int controllerPort = Integer.parseInt(args[2]);
        Files.createDirectories(logDir);

        Properties props = brokerProperties(logDir, brokerPort, controllerPort);
        if (args.length >= 6) {
            addTlsListener(props, Integer.parseInt(args[3]), args[4], args[5]);
        }
        if (args.length == 10) {
            addScramListener(props, Integer.parseInt(args[6]));
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
        awaitBrokerAnswers(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        if (args.length == 10) {
            createScramUser(bootstrap, args[7], args[8]);
            awaitBrokerAnswers(scramClient("127.0.0.1:" + args[6], args[7], args[8], args[9]));
        }
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
        addListener(props, "SSL", port);
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", keyStore);
        props.put("ssl.keystore.password", password);
    }

    /** A client listener that speaks TLS and wants a SCRAM-SHA-512 login. */
    static void addScramListener(Properties props, int port) {
        addListener(props, "SASL_SSL", port);
        props.put("listener.name.sasl_ssl.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        props.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    }

    /** One more client listener, named after its security protocol. */
    private static void addListener(Properties props, String protocol, int port) {
        String listener = protocol + "://127.0.0.1:" + port;
        props.put("listeners", props.getProperty("listeners") + "," + listener);
        props.put(
                "advertised.listeners", props.getProperty("advertised.listeners") + "," + listener);
        props.put(
                "listener.security.protocol.map",
                props.getProperty("listener.security.protocol.map")
                        + ","
                        + protocol
                        + ":"
                        + protocol);
    }

    private static void createScramUser(String bootstrap, String user, String password)
            throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.alterUserScramCredentials(
                            List.of(
                                    new UserScramCredentialUpsertion(
                                            user,
                                            new ScramCredentialInfo(
                                                    ScramMechanism.SCRAM_SHA_512, 8192),
                                            password)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** An admin client's settings for the SASL_SSL listener. */
    private static Map<String, Object> scramClient(
            String bootstrap, String user, String password, String caPem) {
        return Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                "security.protocol",
                "SASL_SSL",
                "ssl.truststore.type",
                "PEM",
                "ssl.truststore.location",
                caPem,
                "sasl.mechanism",
                "SCRAM-SHA-512",
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + user
                        + "\" password=\""
                        + password
                        + "\";");
    }

    /**
     * Waits until an admin client with these settings gets an answer: the broker is up, and on a
     * SASL listener the login is known to it.
     */
    private static void awaitBrokerAnswers(Map<String, Object> client) throws Exception {
        Duration timeout = Duration.ofSeconds(60);
        Instant deadline = Instant.now().plus(timeout);
        Exception last = null;
        Map<String, Object> settings = new java.util.HashMap<>(client);
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        try (Admin admin = Admin.create(settings)) {
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
