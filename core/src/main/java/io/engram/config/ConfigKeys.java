package io.engram.config;

import io.engram.embedding.ModelSpec;
import java.util.List;

/**
 * Every configuration key Engram reads, with its default and environment variable. Declarations
 * only, one per key (the generated docs/configuration.md is made from them): it is long because
 * Engram has many settings, not because it does several jobs.
 */
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
    public static final ConfigKey<Integer> RECALL_DEADLINE_MS =
            ConfigKey.of(
                    "server.recall_deadline_ms",
                    "1000",
                    "time one recall may take in all; a stage that would start later is skipped and"
                            + " named in degraded",
                    Parsers.intRange(50, 60_000));
    public static final ConfigKey<Integer> RECALL_MAX_IN_FLIGHT =
            ConfigKey.of(
                    "server.max_recalls_in_flight",
                    "256",
                    "recalls running at once; more are answered at once with no memories and"
                            + " degraded [\"overload\"]",
                    Parsers.intRange(1, 100_000));
    public static final ConfigKey<Integer> RECALL_ROW_CACHE_SIZE =
            ConfigKey.of(
                    "server.recall_row_cache_size",
                    "100000",
                    "memories the serving tier keeps in process, each user's whole (up to"
                            + " 1000), so that recall hydrates without PostgreSQL while the user's"
                            + " memories are unchanged, for at most a minute; 0: always read",
                    Parsers.intRange(0, 10_000_000));

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
    public static final ConfigKey<String> POSTGRES_PASSWORD_FILE =
            ConfigKey.of(
                    "postgres.password_file",
                    "",
                    "file holding the database password (or an RDS-managed secret's JSON), read"
                            + " again for every new connection: a rotated secret mounted as a file"
                            + " is used without a restart; overrides postgres.password",
                    Parsers::text);
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
    public static final ConfigKey<Integer> KAFKA_REPLICATION_FACTOR =
            ConfigKey.of(
                    "kafka.replication_factor",
                    "1",
                    "copies of each partition of topics Engram creates (3 on a production cluster)",
                    Parsers.intRange(1, Short.MAX_VALUE));

    public static final ConfigKey<String> KAFKA_SECURITY_PROTOCOL =
            ConfigKey.of(
                    "kafka.security_protocol",
                    "PLAINTEXT",
                    "PLAINTEXT; SSL: every Kafka client of both planes speaks TLS to the brokers;"
                            + " SASL_SSL: TLS and a SCRAM login (kafka.sasl_username,"
                            + " ENGRAM_KAFKA_SASL_PASSWORD)",
                    Parsers.oneOf("PLAINTEXT", "SSL", "SASL_SSL"));
    public static final ConfigKey<String> KAFKA_SSL_TRUSTSTORE =
            ConfigKey.of(
                    "kafka.ssl_truststore",
                    "",
                    "PEM file of the CAs the brokers' certificates must chain to (with SSL or"
                            + " SASL_SSL); empty: the JVM's own, which trusts MSK's",
                    Parsers::text);
    public static final ConfigKey<String> KAFKA_SASL_MECHANISM =
            ConfigKey.of(
                    "kafka.sasl_mechanism",
                    "SCRAM-SHA-512",
                    "SCRAM mechanism of the SASL_SSL login (MSK offers SCRAM-SHA-512)",
                    Parsers.oneOf("SCRAM-SHA-256", "SCRAM-SHA-512"));
    public static final ConfigKey<String> KAFKA_SASL_USERNAME =
            ConfigKey.of(
                    "kafka.sasl_username",
                    "",
                    "user of the SASL_SSL login (with ENGRAM_KAFKA_SASL_PASSWORD)",
                    Parsers::text);
    public static final ConfigKey<String> KAFKA_SASL_PASSWORD =
            ConfigKey.secret(
                    "kafka.sasl_password",
                    "ENGRAM_KAFKA_SASL_PASSWORD",
                    "password of the SASL_SSL login");

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
    public static final ConfigKey<String> OPENSEARCH_AUTH =
            ConfigKey.of(
                    "opensearch.auth",
                    "none",
                    "none (the network decides who may call OpenSearch), or aws-sigv4: every"
                            + " request signed with the process's AWS credentials (the AWS SDK's"
                            + " default chain: environment, IRSA, EKS Pod Identity, ECS, EC2)",
                    Parsers.oneOf("none", "aws-sigv4"));
    public static final ConfigKey<String> OPENSEARCH_AWS_REGION =
            ConfigKey.of(
                    "opensearch.aws_region",
                    "",
                    "AWS region of the signature (aws-sigv4); empty: the one in the URL's host",
                    Parsers::text);
    public static final ConfigKey<String> OPENSEARCH_AWS_SERVICE =
            ConfigKey.of(
                    "opensearch.aws_service",
                    "es",
                    "AWS service of the signature: es (OpenSearch Service) or aoss (Serverless)",
                    Parsers.oneOf("es", "aoss"));

    public static final ConfigKey<String> REDIS_URL =
            ConfigKey.of(
                    "redis.url",
                    "",
                    "Redis URL (rediss:// for TLS); empty: the local stack's own server",
                    Parsers.optionalUrl("redis", "rediss"));
    public static final ConfigKey<String> REDIS_TLS_TRUSTSTORE =
            ConfigKey.of(
                    "redis.tls_truststore",
                    "",
                    "PEM file of the CAs a rediss:// server's certificate must chain to; empty: the"
                            + " JVM's own, which trust ElastiCache's",
                    Parsers::text);
    public static final ConfigKey<String> REDIS_USERNAME =
            ConfigKey.of(
                    "redis.username",
                    "",
                    "Redis ACL user to authenticate as (with ENGRAM_REDIS_PASSWORD); empty: the"
                            + " default user",
                    Parsers::text);
    public static final ConfigKey<String> REDIS_PASSWORD =
            ConfigKey.secret(
                    "redis.password",
                    "ENGRAM_REDIS_PASSWORD",
                    "Redis password or ElastiCache AUTH token; empty: none");

    public static final ConfigKey<String> EMBEDDING_VERSION =
            ConfigKey.of(
                    "embedding.version",
                    ModelSpec.DEFAULT.version(),
                    "embedding model and variant ("
                            + ModelSpec.knownVersions()
                            + "); names the index alias",
                    v -> ModelSpec.forVersion(Parsers.name(v)).version());

    public static final ConfigKey<String> EMBEDDING_MODEL_DIR =
            ConfigKey.of(
                    "embedding.model_dir",
                    "",
                    "directory the ONNX model is copied to; empty: <home>/models",
                    Parsers::text);
    public static final ConfigKey<Integer> EMBEDDING_THREADS =
            ConfigKey.of(
                    "embedding.intra_op_threads",
                    "1",
                    "ONNX Runtime threads per embedding call",
                    Parsers.intRange(1, 64));
    public static final ConfigKey<Integer> EMBEDDING_QUERY_WORKERS =
            ConfigKey.of(
                    "embedding.query_workers",
                    "2",
                    "threads of the serving tier that embed recall queries; multi-query sheds its"
                            + " auxiliary questions when more than two texts per thread wait",
                    Parsers.intRange(1, 64));
    public static final ConfigKey<Integer> EMBEDDING_CACHE_SIZE =
            ConfigKey.of(
                    "embedding.cache_size",
                    "10000",
                    "texts whose vectors are kept in memory",
                    Parsers.intRange(0, 10_000_000));

    public static final ConfigKey<String> LLM_URL =
            ConfigKey.of(
                    "llm.url",
                    "",
                    "OpenAI-compatible base URL (…/v1); empty: heuristic extraction and expansion",
                    Parsers.optionalUrl("http", "https"));
    public static final ConfigKey<String> LLM_MODEL =
            ConfigKey.of("llm.model", "gpt-4o-mini", "chat model name", Parsers::text);
    public static final ConfigKey<String> LLM_API_KEY =
            ConfigKey.secret(
                    "llm.api_key", "ENGRAM_LLM_API_KEY", "bearer token for the LLM endpoint");
    public static final ConfigKey<Integer> LLM_TIMEOUT_MS =
            ConfigKey.of(
                    "llm.timeout_ms",
                    "20000",
                    "per-attempt LLM timeout",
                    Parsers.intRange(100, 600_000));
    public static final ConfigKey<Integer> LLM_MAX_RETRIES =
            ConfigKey.of(
                    "llm.max_retries", "2", "LLM retries after a failure", Parsers.intRange(0, 10));
    public static final ConfigKey<Integer> LLM_MAX_TOKENS =
            ConfigKey.of(
                    "llm.max_tokens",
                    "1024",
                    "maximum tokens of an LLM answer",
                    Parsers.intRange(16, 100_000));

    public static final ConfigKey<Double> DEDUP_UPDATE =
            ConfigKey.of("dedup.update_similarity", "0.9", "above: UPDATE", Parsers.fraction());
    public static final ConfigKey<Double> DEDUP_RELATED =
            ConfigKey.of(
                    "dedup.related_similarity",
                    "0.7",
                    "from here to update: related, CREATE",
                    Parsers.fraction());
    public static final ConfigKey<Double> DEDUP_SUPERSEDE_MIN =
            ConfigKey.of(
                    "dedup.supersede_min_similarity",
                    "0.5",
                    "least similarity checked for a changed value",
                    Parsers.fraction());

    public static final ConfigKey<Integer> EXTRACTION_WINDOW_TURNS =
            ConfigKey.of(
                    "extraction.window_turns",
                    "10",
                    "turns per extraction window",
                    Parsers.intRange(1, 1000));
    public static final ConfigKey<Integer> EXTRACTION_OVERLAP_TURNS =
            ConfigKey.of(
                    "extraction.overlap_turns",
                    "3",
                    "turns of the previous window given as context",
                    Parsers.intRange(0, 100));
    public static final ConfigKey<Integer> EXTRACTION_IDLE_GAP_MINUTES =
            ConfigKey.of(
                    "extraction.idle_gap_minutes",
                    "30",
                    "a session ends after this long without a turn",
                    Parsers.intRange(1, 7 * 24 * 60));
    public static final ConfigKey<Integer> EXTRACTION_MAX_SESSION_TURNS =
            ConfigKey.of(
                    "extraction.max_session_turns",
                    "200",
                    "latest turns kept for the session summary",
                    Parsers.intRange(1, 10_000));
    public static final ConfigKey<Integer> EXTRACTION_KNOWN_PER_USER =
            ConfigKey.of(
                    "extraction.known_memories_per_user",
                    "1000",
                    "memories per user kept in job state for dedup",
                    Parsers.intRange(10, 100_000));
    public static final ConfigKey<Integer> EXTRACTION_PARALLELISM =
            ConfigKey.of(
                    "extraction.parallelism",
                    "1",
                    "parallelism of the extraction job",
                    Parsers.intRange(1, 1024));
    public static final ConfigKey<Integer> EXTRACTION_LLM_CONCURRENCY =
            ConfigKey.of(
                    "extraction.llm_concurrency",
                    "8",
                    "LLM calls in flight per extraction task",
                    Parsers.intRange(1, 1000));
    public static final ConfigKey<Integer> EXTRACTION_EXCERPT_TURNS =
            ConfigKey.of(
                    "extraction.excerpt_turns",
                    "3",
                    "turns per raw conversation excerpt stored next to the facts (a turn with the"
                            + " ones before it); 0: facts only",
                    Parsers.intRange(0, 10));
    public static final ConfigKey<Boolean> EXTRACTION_FACTS =
            ConfigKey.of(
                    "extraction.facts",
                    "true",
                    "extract facts; false stores excerpts only (for comparisons)",
                    Parsers::bool);
    public static final ConfigKey<Integer> FLINK_CHECKPOINT_INTERVAL_MS =
            ConfigKey.of(
                    "flink.checkpoint_interval_ms",
                    "10000",
                    "checkpoint interval of the streaming job",
                    Parsers.intRange(100, 3_600_000));

    public static final ConfigKey<String> AUTH_BOOTSTRAP_KEY =
            ConfigKey.secret(
                    "auth.bootstrap_key",
                    "ENGRAM_BOOTSTRAP_KEY",
                    "admin API key registered at start-up (local stack) or by engram-serving"
                            + " prepare",
                    Parsers::apiKey);
    public static final ConfigKey<Integer> AUTH_KEY_CACHE_MS =
            ConfigKey.of(
                    "auth.key_cache_ms",
                    "30000",
                    "how long an API key's lookup is reused; a revoked key stops working on other"
                            + " instances at once when they hear of it through Redis, within this time"
                            + " otherwise",
                    Parsers.intRange(0, 3_600_000));

    public static final ConfigKey<Integer> MAINTENANCE_DECAY_HALF_LIFE_DAYS =
            ConfigKey.of(
                    "maintenance.decay_half_life_days",
                    "30",
                    "days without recall that halve decay_score (longer for important memories)",
                    Parsers.intRange(1, 36_500));
    public static final ConfigKey<Integer> MAINTENANCE_WARM_AFTER_DAYS =
            ConfigKey.of(
                    "maintenance.warm_after_days",
                    "14",
                    "days without recall after which a memory leaves the hot tier",
                    Parsers.intRange(1, 36_500));
    public static final ConfigKey<Integer> MAINTENANCE_COLD_AFTER_DAYS =
            ConfigKey.of(
                    "maintenance.cold_after_days",
                    "60",
                    "days without recall after which a memory goes cold",
                    Parsers.intRange(1, 36_500));
    public static final ConfigKey<Double> MAINTENANCE_HOLD_IMPORTANCE =
            ConfigKey.of(
                    "maintenance.hold_importance",
                    "0.8",
                    "memories at least this important never go colder than warm",
                    Parsers.fraction());
    public static final ConfigKey<Double> MAINTENANCE_CONSOLIDATION_SIMILARITY =
            ConfigKey.of(
                    "maintenance.consolidation_similarity",
                    "0.6",
                    "cosine similarity that puts two memories of one type in one cluster",
                    Parsers.fraction());
    public static final ConfigKey<Integer> MAINTENANCE_QUOTA_PER_USER =
            ConfigKey.of(
                    "maintenance.quota_per_user",
                    "10000",
                    "most current memories a user keeps; the lowest-value ones beyond are archived",
                    Parsers.intRange(1, 100_000_000));
    public static final ConfigKey<Integer> MAINTENANCE_QUOTA_PROTECT_EXPLICIT_DAYS =
            ConfigKey.of(
                    "maintenance.quota_protect_explicit_days",
                    "30",
                    "explicitly stored memories younger than this are never evicted by the quota",
                    Parsers.intRange(0, 36_500));
    public static final ConfigKey<Integer> MAINTENANCE_PARALLELISM =
            ConfigKey.of(
                    "maintenance.parallelism",
                    "2",
                    "parallel partitions of a maintenance job",
                    Parsers.intRange(1, 1024));
    public static final ConfigKey<String> MAINTENANCE_DAILY_AT =
            ConfigKey.of(
                    "maintenance.daily_at_utc",
                    "03:00",
                    "time of day (UTC, HH:MM) the local stack runs every job; off: never",
                    Parsers::dailyTime);

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
                    RECALL_DEADLINE_MS,
                    RECALL_MAX_IN_FLIGHT,
                    POSTGRES_URL,
                    POSTGRES_USER,
                    POSTGRES_PASSWORD,
                    POSTGRES_PASSWORD_FILE,
                    POSTGRES_POOL_SIZE,
                    KAFKA_BOOTSTRAP_SERVERS,
                    KAFKA_TURNS_TOPIC,
                    KAFKA_DLQ_TOPIC,
                    KAFKA_PARTITIONS,
                    KAFKA_REPLICATION_FACTOR,
                    KAFKA_SECURITY_PROTOCOL,
                    KAFKA_SSL_TRUSTSTORE,
                    KAFKA_SASL_MECHANISM,
                    KAFKA_SASL_USERNAME,
                    KAFKA_SASL_PASSWORD,
                    OPENSEARCH_URL,
                    OPENSEARCH_INDEX_PREFIX,
                    OPENSEARCH_SHARDS,
                    OPENSEARCH_REPLICAS,
                    OPENSEARCH_AUTH,
                    OPENSEARCH_AWS_REGION,
                    OPENSEARCH_AWS_SERVICE,
                    REDIS_URL,
                    REDIS_TLS_TRUSTSTORE,
                    REDIS_USERNAME,
                    REDIS_PASSWORD,
                    EMBEDDING_VERSION,
                    EMBEDDING_MODEL_DIR,
                    EMBEDDING_THREADS,
                    EMBEDDING_QUERY_WORKERS,
                    EMBEDDING_CACHE_SIZE,
                    LLM_URL,
                    LLM_MODEL,
                    LLM_API_KEY,
                    LLM_TIMEOUT_MS,
                    LLM_MAX_RETRIES,
                    LLM_MAX_TOKENS,
                    DEDUP_UPDATE,
                    DEDUP_RELATED,
                    DEDUP_SUPERSEDE_MIN,
                    EXTRACTION_WINDOW_TURNS,
                    EXTRACTION_OVERLAP_TURNS,
                    EXTRACTION_IDLE_GAP_MINUTES,
                    EXTRACTION_MAX_SESSION_TURNS,
                    EXTRACTION_KNOWN_PER_USER,
                    EXTRACTION_PARALLELISM,
                    EXTRACTION_LLM_CONCURRENCY,
                    EXTRACTION_EXCERPT_TURNS,
                    EXTRACTION_FACTS,
                    FLINK_CHECKPOINT_INTERVAL_MS,
                    AUTH_BOOTSTRAP_KEY,
                    AUTH_KEY_CACHE_MS,
                    MAINTENANCE_DECAY_HALF_LIFE_DAYS,
                    MAINTENANCE_WARM_AFTER_DAYS,
                    MAINTENANCE_COLD_AFTER_DAYS,
                    MAINTENANCE_HOLD_IMPORTANCE,
                    MAINTENANCE_CONSOLIDATION_SIMILARITY,
                    MAINTENANCE_QUOTA_PER_USER,
                    MAINTENANCE_QUOTA_PROTECT_EXPLICIT_DAYS,
                    MAINTENANCE_PARALLELISM,
                    MAINTENANCE_DAILY_AT,
                    LOCAL_POSTGRES_PORT,
                    LOCAL_KAFKA_PORT,
                    LOCAL_KAFKA_CONTROLLER_PORT,
                    LOCAL_OPENSEARCH_PORT,
                    LOCAL_REDIS_PORT,
                    LOCAL_OPENSEARCH_HEAP,
                    LOCAL_KAFKA_HEAP);
}
