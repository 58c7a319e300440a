package io.engram.config;

import io.engram.store.opensearch.OpenSearchAuth;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The typed configuration both planes read. Built by {@link ConfigLoader} from defaults, an
 * optional YAML file and {@code ENGRAM_*} environment variables, in that order of precedence.
 */
public record EngramConfig(
        Path home,
        Server server,
        Postgres postgres,
        Kafka kafka,
        OpenSearch openSearch,
        Redis redis,
        Embedding embedding,
        Llm llm,
        Dedup dedup,
        Extraction extraction,
        Auth auth,
        Maintenance maintenance,
        Local local) {

    /**
     * The HTTP API: where it listens, the time a recall may take in all ({@code recallDeadlineMs};
     * a stage that would start past it is skipped and named in {@code degraded}), and how many
     * recalls may run at once before more are answered at once without memories; how many memories
     * recall keeps in process after hydrating them ({@code recallRowCacheSize}, 0: none).
     */
    public record Server(
            String host,
            int port,
            int recallDeadlineMs,
            int maxRecallsInFlight,
            int recallRowCacheSize) {}

    /**
     * The database and how to log in. With {@code passwordFile} set, {@link #password()} reads it
     * at every call, so each new connection uses the password it holds now: a secret mounted as a
     * file (and updated in place when it is rotated) is followed without a restart.
     */
    public record Postgres(
            String url, String user, String password, String passwordFile, int poolSize)
            implements java.io.Serializable {

        /** The password, from {@code passwordFile} when it is set. */
        @Override
        public String password() {
            return passwordFile.isEmpty()
                    ? password
                    : SecretFile.read("postgres.password_file", passwordFile);
        }

        private static final java.sql.Driver DRIVER = new org.postgresql.Driver();

        /** A new JDBC connection, logged in with the current password. */
        public Connection connect() throws SQLException {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("user", user);
            String password = password();
            if (password != null) {
                p.setProperty("password", password);
            }
            // Batches of inserts go as multi-row statements (the write plane sends its new
            // memories in batches); a setting in the URL wins.
            p.setProperty("reWriteBatchedInserts", "true");
            // The driver directly, not DriverManager: DriverManager hands out only drivers that the
            // caller's class loader sees, and on a Flink TaskManager the driver it registered for
            // one job's class loader is refused to the next job's ("No suitable driver").
            Connection connection = DRIVER.connect(url, p);
            if (connection == null) {
                throw new SQLException("not a PostgreSQL JDBC URL: " + url);
            }
            return connection;
        }

        @Override
        public String toString() {
            return "Postgres[url="
                    + url
                    + ", user="
                    + user
                    + ", password=***"
                    + (passwordFile.isEmpty() ? "" : " (from " + passwordFile + ")")
                    + ", poolSize="
                    + poolSize
                    + "]";
        }
    }

    /**
     * The brokers and how to reach them ({@code securityProtocol} PLAINTEXT, SSL, or SASL_SSL: TLS
     * and a SCRAM login as {@code saslUsername} with {@code saslMechanism}; {@code sslTruststore} a
     * PEM file of CAs or empty for the JVM's), and the topics Engram uses.
     */
    public record Kafka(
            String bootstrapServers,
            String turnsTopic,
            String dlqTopic,
            int partitions,
            int replicationFactor,
            String securityProtocol,
            String sslTruststore,
            String saslMechanism,
            String saslUsername,
            String saslPassword) {

        /**
         * The consumer group of the extraction job: its committed offsets are what the write plane
         * has turned into memories.
         */
        public static final String EXTRACTION_GROUP = "engram-extraction";

        public boolean sasl() {
            return securityProtocol.startsWith("SASL_");
        }

        /**
         * Client settings every Kafka client of Engram adds to its own: TLS and the SCRAM login,
         * when configured. The map holds the password: log {@link #toString()}, never the map.
         */
        public Map<String, String> security() {
            Map<String, String> out = new LinkedHashMap<>();
            if (!securityProtocol.equals("PLAINTEXT")) {
                out.put("security.protocol", securityProtocol);
                if (!sslTruststore.isEmpty()) {
                    out.put("ssl.truststore.type", "PEM");
                    out.put("ssl.truststore.location", sslTruststore);
                }
            }
            if (sasl()) {
                out.put("sasl.mechanism", saslMechanism);
                out.put(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\""
                                + jaasQuoted(saslUsername)
                                + "\" password=\""
                                + jaasQuoted(saslPassword)
                                + "\";");
            }
            return out;
        }

        /** The inside of a double-quoted JAAS option value. */
        private static String jaasQuoted(String value) {
            return value.replace("\\", "\\\\").replace("\"", "\\\"");
        }

        /** {@link #security()} and the bootstrap servers: enough for an admin client. */
        public Map<String, Object> clientProperties() {
            Map<String, Object> out = new LinkedHashMap<>(security());
            out.put("bootstrap.servers", bootstrapServers);
            return out;
        }

        @Override
        public String toString() {
            return "Kafka[bootstrapServers="
                    + bootstrapServers
                    + ", turnsTopic="
                    + turnsTopic
                    + ", securityProtocol="
                    + securityProtocol
                    + (sasl()
                            ? ", " + saslMechanism + " as " + saslUsername + ", password=***"
                            : "")
                    + "]";
        }
    }

    /** The OpenSearch cluster, how Engram says who it is there, and the shape of new indexes. */
    public record OpenSearch(
            String url, String indexPrefix, int shards, int replicas, OpenSearchAuth auth) {}

    /**
     * {@code url} redis:// or rediss:// (TLS, the server's certificate checked against {@code
     * tlsTruststore}, a PEM file of CAs, or the JVM's own when empty); {@code password} (empty:
     * none) is sent with AUTH, as {@code username} when one is set (a Redis ACL user) or as the
     * default user. Serializable: the jobs ship it to their task managers.
     */
    public record Redis(String url, String tlsTruststore, String username, String password)
            implements java.io.Serializable {

        /** A server that asks for no password. */
        public static Redis at(String url, String tlsTruststore) {
            return new Redis(url, tlsTruststore, "", "");
        }

        public boolean tls() {
            return url.startsWith("rediss:");
        }

        public boolean configured() {
            return !url.isEmpty();
        }

        @Override
        public String toString() {
            return "Redis[url="
                    + url
                    + ", username="
                    + (username.isEmpty() ? "default" : username)
                    + ", password="
                    + (password.isEmpty() ? "none" : "***")
                    + "]";
        }
    }

    /** The embedding model; {@code modelDir} empty means {@code <home>/models}. */
    public record Embedding(
            String version, String modelDir, int intraOpThreads, int queryWorkers, int cacheSize) {
        public Path modelPath(Path home) {
            return modelDir.isEmpty() ? home.resolve("models") : Path.of(modelDir);
        }
    }

    /** The optional LLM endpoint; {@code url} empty means "no LLM": heuristics everywhere. */
    public record Llm(
            String url, String model, String apiKey, int timeoutMs, int maxRetries, int maxTokens) {
        public boolean enabled() {
            return !url.isEmpty();
        }

        @Override
        public String toString() {
            return "Llm[url="
                    + url
                    + ", model="
                    + model
                    + ", apiKey="
                    + (apiKey.isEmpty() ? "none" : "***")
                    + "]";
        }
    }

    public record Dedup(
            double updateSimilarity, double relatedSimilarity, double supersedeMinSimilarity) {}

    /** The local stack's bootstrap key and how long an API key's lookup is reused. */
    public record Auth(Optional<String> bootstrapKey, int keyCacheMs) {
        @Override
        public String toString() {
            return "Auth[bootstrapKey="
                    + (bootstrapKey.isPresent() ? "***" : "none")
                    + ", keyCacheMs="
                    + keyCacheMs
                    + "]";
        }
    }

    /** The streaming extraction job. */
    public record Extraction(
            int windowTurns,
            int overlapTurns,
            int idleGapMinutes,
            int maxSessionTurns,
            int knownMemoriesPerUser,
            int parallelism,
            int llmConcurrency,
            int checkpointIntervalMs,
            int excerptTurns,
            boolean facts) {}

    /**
     * The scheduled maintenance jobs: decay and tiers, consolidation, retention, quotas. {@code
     * dailyAtUtc} is "HH:MM" or "off".
     */
    public record Maintenance(
            int decayHalfLifeDays,
            int warmAfterDays,
            int coldAfterDays,
            double holdImportance,
            double consolidationSimilarity,
            int quotaPerUser,
            int quotaProtectExplicitDays,
            int parallelism,
            String dailyAtUtc)
            implements java.io.Serializable {

        public Maintenance withQuota(int perUser) {
            return new Maintenance(
                    decayHalfLifeDays,
                    warmAfterDays,
                    coldAfterDays,
                    holdImportance,
                    consolidationSimilarity,
                    perUser,
                    quotaProtectExplicitDays,
                    parallelism,
                    dailyAtUtc);
        }
    }

    /** Settings of the embedded services the local stack starts. */
    public record Local(
            int postgresPort,
            int kafkaPort,
            int kafkaControllerPort,
            int openSearchPort,
            int redisPort,
            String openSearchHeap,
            String kafkaHeap) {}

    /** Defaults only, with the process environment applied. */
    public static EngramConfig fromEnvironment() {
        return ConfigLoader.load(Optional.empty(), System.getenv());
    }

    /** Defaults only, ignoring the environment (tests). */
    public static EngramConfig defaults() {
        return ConfigLoader.load(Optional.empty(), Map.of());
    }

    /** A copy that points at already running services (the local stack's or a test's). */
    public EngramConfig withServices(
            String postgresUrl,
            String postgresUser,
            String postgresPassword,
            String kafkaBootstrap,
            String openSearchUrl,
            String redisUrl) {
        return new EngramConfig(
                home,
                server,
                new Postgres(postgresUrl, postgresUser, postgresPassword, "", postgres.poolSize()),
                new Kafka(
                        kafkaBootstrap,
                        kafka.turnsTopic(),
                        kafka.dlqTopic(),
                        kafka.partitions(),
                        kafka.replicationFactor(),
                        kafka.securityProtocol(),
                        kafka.sslTruststore(),
                        kafka.saslMechanism(),
                        kafka.saslUsername(),
                        kafka.saslPassword()),
                new OpenSearch(
                        openSearchUrl,
                        openSearch.indexPrefix(),
                        openSearch.shards(),
                        openSearch.replicas(),
                        openSearch.auth()),
                new Redis(redisUrl, redis.tlsTruststore(), redis.username(), redis.password()),
                embedding,
                llm,
                dedup,
                extraction,
                auth,
                maintenance,
                local);
    }

    public EngramConfig withExtraction(Extraction value) {
        return new EngramConfig(
                home,
                server,
                postgres,
                kafka,
                openSearch,
                redis,
                embedding,
                llm,
                dedup,
                value,
                auth,
                maintenance,
                local);
    }

    public EngramConfig withLlm(Llm value) {
        return new EngramConfig(
                home,
                server,
                postgres,
                kafka,
                openSearch,
                redis,
                embedding,
                value,
                dedup,
                extraction,
                auth,
                maintenance,
                local);
    }

    public EngramConfig withServerPort(int port) {
        return new EngramConfig(
                home,
                new Server(
                        server.host(),
                        port,
                        server.recallDeadlineMs(),
                        server.maxRecallsInFlight(),
                        server.recallRowCacheSize()),
                postgres,
                kafka,
                openSearch,
                redis,
                embedding,
                llm,
                dedup,
                extraction,
                auth,
                maintenance,
                local);
    }

    /** The alias every read and write of memories goes through for the configured model. */
    public String memoryIndexAlias() {
        return openSearch.indexPrefix() + "-" + embedding.version();
    }
}
