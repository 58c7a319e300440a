package io.engram.config;

import java.util.List;

/** Every configuration key Engram reads, with its default and environment variable. */
public final class ConfigKeys {

    private ConfigKeys() {}

    public static final ConfigKey<String> HOME =
            ConfigKey.of("home", "~/.engram", "directory for all local data", Parsers::text)
                    .withEnv("ENGRAM_HOME");

    public static final ConfigKey<String> SERVER_HOST =
            ConfigKey.of("server.host", "127.0.0.1", "address the HTTP API binds", Parsers::text);
    public static final ConfigKey<Integer> SERVER_PORT =
            ConfigKey.of("server.port", "8080", "HTTP API port (0: any free port)", Parsers.port())
                    .withEnv("ENGRAM_PORT");

    public static final ConfigKey<String> POSTGRES_URL =
            ConfigKey.of(
                    "postgres.url",
                    "",
                    "JDBC URL of the database; empty: the local stack's own server",
                    Parsers.optionalUrl("jdbc:postgresql"));
    public static final ConfigKey<String> POSTGRES_USER =
            ConfigKey.of("postgres.user", "engram", "database user", Parsers::text);
    public static final ConfigKey<String> POSTGRES_PASSWORD =
            ConfigKey.secret("postgres.password", "ENGRAM_POSTGRES_PASSWORD", "database password");
    public static final ConfigKey<Integer> POSTGRES_POOL_SIZE =
            ConfigKey.of(
                    "postgres.pool_size", "8", "connections per pool", Parsers.intRange(1, 200));

    public static final ConfigKey<String> KAFKA_BOOTSTRAP_SERVERS =
            ConfigKey.of(
                    "kafka.bootstrap_servers",
                    "",
                    "Kafka bootstrap servers; empty: the local stack's own broker",
                    Parsers::hostPorts);
    public static final ConfigKey<String> KAFKA_TURNS_TOPIC =
            ConfigKey.of("kafka.turns_topic", "engram.turns", "topic of chat turns", Parsers::name);
    public static final ConfigKey<String> KAFKA_DLQ_TOPIC =
            ConfigKey.of(
                    "kafka.dlq_topic",
                    "engram.turns.dlq",
                    "topic of rejected turn records",
                    Parsers::name);
    public static final ConfigKey<Integer> KAFKA_PARTITIONS =
            ConfigKey.of(
                    "kafka.partitions",
                    "4",
                    "partitions of topics Engram creates",
                    Parsers.intRange(1, 10_000));

    public static final ConfigKey<String> OPENSEARCH_URL =
            ConfigKey.of(
                    "opensearch.url",
                    "",
                    "OpenSearch HTTP URL; empty: the local stack's own node",
                    Parsers.optionalUrl("http", "https"));
    public static final ConfigKey<String> OPENSEARCH_INDEX_PREFIX =
            ConfigKey.of(
                    "opensearch.index_prefix",
                    "engram-memories",
                    "prefix of memory index aliases",
                    Parsers::name);
    public static final ConfigKey<Integer> OPENSEARCH_SHARDS =
            ConfigKey.of(
                    "opensearch.shards",
                    "1",
                    "primary shards of a new index",
                    Parsers.intRange(1, 1024));
    public static final ConfigKey<Integer> OPENSEARCH_REPLICAS =
            ConfigKey.of(
                    "opensearch.replicas", "0", "replicas of a new index", Parsers.intRange(0, 16));

    public static final ConfigKey<String> REDIS_URL =
            ConfigKey.of(
                    "redis.url",
                    "",
                    "Redis URL; empty: the local stack's own server",
                    Parsers.optionalUrl("redis", "rediss"));

    public static final ConfigKey<String> EMBEDDING_VERSION =
            ConfigKey.of(
                    "embedding.version",
                    "minilm-l6-v2-fp32",
                    "embedding model and variant; names the index alias",
                    Parsers::name);

    public static final ConfigKey<String> AUTH_BOOTSTRAP_KEY =
            ConfigKey.secret(
                    "auth.bootstrap_key",
                    "ENGRAM_BOOTSTRAP_KEY",
                    "admin API key created at start-up (local stack)");

    public static final ConfigKey<Integer> LOCAL_POSTGRES_PORT =
            ConfigKey.of(
                    "local.postgres_port",
                    "15432",
                    "local stack PostgreSQL port, if free",
                    Parsers.port());
    public static final ConfigKey<Integer> LOCAL_KAFKA_PORT =
            ConfigKey.of(
                    "local.kafka_port", "19092", "local stack Kafka port, if free", Parsers.port());
    public static final ConfigKey<Integer> LOCAL_KAFKA_CONTROLLER_PORT =
            ConfigKey.of(
                    "local.kafka_controller_port",
                    "19093",
                    "local stack KRaft controller port, if free",
                    Parsers.port());
    public static final ConfigKey<Integer> LOCAL_OPENSEARCH_PORT =
            ConfigKey.of(
                    "local.opensearch_port",
                    "19200",
                    "first local stack OpenSearch HTTP port to try",
                    Parsers.port());
    public static final ConfigKey<Integer> LOCAL_REDIS_PORT =
            ConfigKey.of(
                    "local.redis_port", "16379", "local stack Redis port, if free", Parsers.port());
    public static final ConfigKey<String> LOCAL_OPENSEARCH_HEAP =
            ConfigKey.of(
                    "local.opensearch_heap", "1g", "heap of the OpenSearch JVM", Parsers::heap);
    public static final ConfigKey<String> LOCAL_KAFKA_HEAP =
            ConfigKey.of("local.kafka_heap", "512m", "heap of the Kafka broker JVM", Parsers::heap);

    public static final List<ConfigKey<?>> ALL =
            List.of(
                    HOME,
                    SERVER_HOST,
                    SERVER_PORT,
                    POSTGRES_URL,
                    POSTGRES_USER,
                    POSTGRES_PASSWORD,
                    POSTGRES_POOL_SIZE,
                    KAFKA_BOOTSTRAP_SERVERS,
                    KAFKA_TURNS_TOPIC,
                    KAFKA_DLQ_TOPIC,
                    KAFKA_PARTITIONS,
                    OPENSEARCH_URL,
                    OPENSEARCH_INDEX_PREFIX,
                    OPENSEARCH_SHARDS,
                    OPENSEARCH_REPLICAS,
                    REDIS_URL,
                    EMBEDDING_VERSION,
                    AUTH_BOOTSTRAP_KEY,
                    LOCAL_POSTGRES_PORT,
                    LOCAL_KAFKA_PORT,
                    LOCAL_KAFKA_CONTROLLER_PORT,
                    LOCAL_OPENSEARCH_PORT,
                    LOCAL_REDIS_PORT,
                    LOCAL_OPENSEARCH_HEAP,
                    LOCAL_KAFKA_HEAP);
}
