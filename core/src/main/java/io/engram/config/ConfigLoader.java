package io.engram.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.engram.store.opensearch.OpenSearchAuth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads the configuration: defaults, then the YAML file, then environment variables. Fails with a
 * {@link ConfigException} naming the key for an unknown key, a secret in the file or a value that
 * does not parse.
 */
public final class ConfigLoader {

    /** Environment variable naming the YAML file when no path is given. */
    public static final String CONFIG_FILE_ENV = "ENGRAM_CONFIG";

    private ConfigLoader() {}

    public static EngramConfig load(Optional<Path> file, Map<String, String> env) {
        Optional<Path> source =
                file.or(
                        () ->
                                Optional.ofNullable(env.get(CONFIG_FILE_ENV))
                                        .filter(s -> !s.isBlank())
                                        .map(Path::of));
        Map<String, String> fromFile = source.map(ConfigLoader::readYaml).orElse(Map.of());
        return resolve(fromFile, env, source.map(Path::toString).orElse("(none)"));
    }

    static EngramConfig resolve(
            Map<String, String> fromFile, Map<String, String> env, String source) {
        Map<String, ConfigKey<?>> known = new LinkedHashMap<>();
        ConfigKeys.ALL.forEach(k -> known.put(k.name(), k));
        for (String key : fromFile.keySet()) {
            ConfigKey<?> k = known.get(key);
            if (k == null) {
                throw new ConfigException(
                        "unknown configuration key '"
                                + key
                                + "' in "
                                + source
                                + "; known keys: "
                                + String.join(", ", known.keySet()));
            }
            if (k.secret()) {
                throw new ConfigException(
                        "configuration key '"
                                + key
                                + "' is a secret and may only be set through the environment"
                                + " variable "
                                + k.env()
                                + ", not in "
                                + source);
            }
        }
        Values values = new Values(fromFile, env);
        return new EngramConfig(
                Path.of(expandHome(values.get(ConfigKeys.HOME))),
                new EngramConfig.Server(
                        values.get(ConfigKeys.SERVER_HOST),
                        values.get(ConfigKeys.SERVER_PORT),
                        values.get(ConfigKeys.RECALL_DEADLINE_MS),
                        values.get(ConfigKeys.RECALL_MAX_IN_FLIGHT),
                        values.get(ConfigKeys.RECALL_ROW_CACHE_SIZE)),
                postgres(values),
                kafka(values),
                openSearch(values),
                redis(values),
                new EngramConfig.Embedding(
                        values.get(ConfigKeys.EMBEDDING_VERSION),
                        values.get(ConfigKeys.EMBEDDING_MODEL_DIR),
                        values.get(ConfigKeys.EMBEDDING_THREADS),
                        values.get(ConfigKeys.EMBEDDING_QUERY_WORKERS),
                        values.get(ConfigKeys.EMBEDDING_CACHE_SIZE)),
                new EngramConfig.Llm(
                        values.get(ConfigKeys.LLM_URL),
                        values.get(ConfigKeys.LLM_MODEL),
                        values.get(ConfigKeys.LLM_API_KEY),
                        values.get(ConfigKeys.LLM_TIMEOUT_MS),
                        values.get(ConfigKeys.LLM_MAX_RETRIES),
                        values.get(ConfigKeys.LLM_MAX_TOKENS)),
                dedup(values),
                new EngramConfig.Extraction(
                        values.get(ConfigKeys.EXTRACTION_WINDOW_TURNS),
                        values.get(ConfigKeys.EXTRACTION_OVERLAP_TURNS),
                        values.get(ConfigKeys.EXTRACTION_IDLE_GAP_MINUTES),
                        values.get(ConfigKeys.EXTRACTION_MAX_SESSION_TURNS),
                        values.get(ConfigKeys.EXTRACTION_KNOWN_PER_USER),
                        values.get(ConfigKeys.EXTRACTION_PARALLELISM),
                        values.get(ConfigKeys.EXTRACTION_LLM_CONCURRENCY),
                        values.get(ConfigKeys.FLINK_CHECKPOINT_INTERVAL_MS),
                        values.get(ConfigKeys.EXTRACTION_EXCERPT_TURNS),
                        values.get(ConfigKeys.EXTRACTION_FACTS)),
                new EngramConfig.Auth(
                        Optional.of(values.get(ConfigKeys.AUTH_BOOTSTRAP_KEY))
                                .filter(s -> !s.isEmpty()),
                        values.get(ConfigKeys.AUTH_KEY_CACHE_MS)),
                new EngramConfig.Maintenance(
                        values.get(ConfigKeys.MAINTENANCE_DECAY_HALF_LIFE_DAYS),
                        values.get(ConfigKeys.MAINTENANCE_WARM_AFTER_DAYS),
                        values.get(ConfigKeys.MAINTENANCE_COLD_AFTER_DAYS),
                        values.get(ConfigKeys.MAINTENANCE_HOLD_IMPORTANCE),
                        values.get(ConfigKeys.MAINTENANCE_CONSOLIDATION_SIMILARITY),
                        values.get(ConfigKeys.MAINTENANCE_QUOTA_PER_USER),
                        values.get(ConfigKeys.MAINTENANCE_QUOTA_PROTECT_EXPLICIT_DAYS),
                        values.get(ConfigKeys.MAINTENANCE_PARALLELISM),
                        values.get(ConfigKeys.MAINTENANCE_DAILY_AT)),
                new EngramConfig.Local(
                        values.get(ConfigKeys.LOCAL_POSTGRES_PORT),
                        values.get(ConfigKeys.LOCAL_KAFKA_PORT),
                        values.get(ConfigKeys.LOCAL_KAFKA_CONTROLLER_PORT),
                        values.get(ConfigKeys.LOCAL_OPENSEARCH_PORT),
                        values.get(ConfigKeys.LOCAL_REDIS_PORT),
                        values.get(ConfigKeys.LOCAL_OPENSEARCH_HEAP),
                        values.get(ConfigKeys.LOCAL_KAFKA_HEAP)));
    }

    /** Looks a key up in the environment, then the file, then its default, and parses it. */
    private record Values(Map<String, String> file, Map<String, String> env) {
        <T> T get(ConfigKey<T> key) {
            String text;
            String origin;
            if (env.containsKey(key.env())) {
                text = env.get(key.env());
                origin = "environment variable " + key.env();
            } else if (file.containsKey(key.name())) {
                text = file.get(key.name());
                origin = "configuration file";
            } else {
                text = key.defaultValue();
                origin = "default";
            }
            try {
                return key.parser().apply(text);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(
                        "invalid value for configuration key '"
                                + key.name()
                                + "' (from "
                                + origin
                                + "): "
                                + e.getMessage());
            }
        }
    }

    private static EngramConfig.Kafka kafka(Values values) {
        EngramConfig.Kafka k =
                new EngramConfig.Kafka(
                        values.get(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS),
                        values.get(ConfigKeys.KAFKA_TURNS_TOPIC),
                        values.get(ConfigKeys.KAFKA_DLQ_TOPIC),
                        values.get(ConfigKeys.KAFKA_PARTITIONS),
                        values.get(ConfigKeys.KAFKA_REPLICATION_FACTOR),
                        values.get(ConfigKeys.KAFKA_SECURITY_PROTOCOL),
                        values.get(ConfigKeys.KAFKA_SSL_TRUSTSTORE),
                        values.get(ConfigKeys.KAFKA_SASL_MECHANISM),
                        values.get(ConfigKeys.KAFKA_SASL_USERNAME),
                        values.get(ConfigKeys.KAFKA_SASL_PASSWORD));
        boolean login = !k.saslUsername().isEmpty() || !k.saslPassword().isEmpty();
        if (k.sasl() && (k.saslUsername().isEmpty() || k.saslPassword().isEmpty())) {
            throw new ConfigException(
                    "configuration key 'kafka.security_protocol' is SASL_SSL but "
                            + (k.saslUsername().isEmpty()
                                    ? "'kafka.sasl_username'"
                                    : ConfigKeys.KAFKA_SASL_PASSWORD.env())
                            + " is not set");
        }
        if (!k.sasl() && login) {
            throw new ConfigException(
                    "a Kafka login is configured ('kafka.sasl_username' or "
                            + ConfigKeys.KAFKA_SASL_PASSWORD.env()
                            + ") but 'kafka.security_protocol' is "
                            + k.securityProtocol()
                            + ", which sends none: set it to SASL_SSL");
        }
        return k;
    }

    private static EngramConfig.OpenSearch openSearch(Values values) {
        String url = values.get(ConfigKeys.OPENSEARCH_URL);
        String mode = values.get(ConfigKeys.OPENSEARCH_AUTH);
        String region = values.get(ConfigKeys.OPENSEARCH_AWS_REGION);
        String service = values.get(ConfigKeys.OPENSEARCH_AWS_SERVICE);
        if (mode.equals(OpenSearchAuth.SIGV4_MODE) && region.isEmpty()) {
            // https://search-x-abc.eu-west-1.es.amazonaws.com,
            // https://id.eu-west-1.aoss.amazonaws.com
            java.util.regex.Matcher m =
                    java.util.regex.Pattern.compile(
                                    "\\.([a-z0-9-]+)\\.(es|aoss)\\.amazonaws\\.com$")
                            .matcher(url.isEmpty() ? "" : java.net.URI.create(url).getHost());
            if (!m.find()) {
                throw new ConfigException(
                        "configuration key 'opensearch.auth' is aws-sigv4 but 'opensearch.aws_region'"
                                + " is not set and the URL's host does not name a region");
            }
            region = m.group(1);
        }
        return new EngramConfig.OpenSearch(
                url,
                values.get(ConfigKeys.OPENSEARCH_INDEX_PREFIX),
                values.get(ConfigKeys.OPENSEARCH_SHARDS),
                values.get(ConfigKeys.OPENSEARCH_REPLICAS),
                new OpenSearchAuth(mode, region, service));
    }

    private static EngramConfig.Postgres postgres(Values values) {
        String file = values.get(ConfigKeys.POSTGRES_PASSWORD_FILE);
        if (!file.isEmpty() && !Files.isReadable(Path.of(file))) {
            throw new ConfigException(
                    "configuration key 'postgres.password_file': "
                            + file
                            + " is not a readable file");
        }
        return new EngramConfig.Postgres(
                values.get(ConfigKeys.POSTGRES_URL),
                values.get(ConfigKeys.POSTGRES_USER),
                values.get(ConfigKeys.POSTGRES_PASSWORD),
                file,
                values.get(ConfigKeys.POSTGRES_POOL_SIZE));
    }

    private static EngramConfig.Redis redis(Values values) {
        EngramConfig.Redis r =
                new EngramConfig.Redis(
                        values.get(ConfigKeys.REDIS_URL),
                        values.get(ConfigKeys.REDIS_TLS_TRUSTSTORE),
                        values.get(ConfigKeys.REDIS_USERNAME),
                        values.get(ConfigKeys.REDIS_PASSWORD));
        if (r.configured() && java.net.URI.create(r.url()).getRawUserInfo() != null) {
            // A URL is printed in logs and job graphs; a password in it would be too.
            throw new ConfigException(
                    "configuration key 'redis.url' must not hold credentials: set 'redis.username'"
                            + " and the environment variable "
                            + ConfigKeys.REDIS_PASSWORD.env()
                            + " instead");
        }
        if (!r.username().isEmpty() && r.password().isEmpty()) {
            throw new ConfigException(
                    "configuration key 'redis.username' is set but "
                            + ConfigKeys.REDIS_PASSWORD.env()
                            + " is not: a Redis ACL user needs its password");
        }
        return r;
    }

    private static EngramConfig.Dedup dedup(Values values) {
        EngramConfig.Dedup d =
                new EngramConfig.Dedup(
                        values.get(ConfigKeys.DEDUP_UPDATE),
                        values.get(ConfigKeys.DEDUP_RELATED),
                        values.get(ConfigKeys.DEDUP_SUPERSEDE_MIN));
        if (!(d.supersedeMinSimilarity() <= d.relatedSimilarity()
                && d.relatedSimilarity() <= d.updateSimilarity())) {
            throw new ConfigException(
                    "configuration keys 'dedup.supersede_min_similarity' <= 'dedup.related_similarity' <="
                            + " 'dedup.update_similarity' must hold, got "
                            + d.supersedeMinSimilarity()
                            + ", "
                            + d.relatedSimilarity()
                            + ", "
                            + d.updateSimilarity());
        }
        return d;
    }

    private static String expandHome(String path) {
        if (path.equals("~") || path.startsWith("~/")) {
            return System.getProperty("user.home") + path.substring(1);
        }
        return path;
    }

    private static Map<String, String> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("configuration file " + file + " does not exist");
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(
                    "configuration file " + file + " is not valid YAML: " + e.getMessage());
        }
        Map<String, String> flat = new LinkedHashMap<>();
        if (root == null || root.isMissingNode() || root.isNull()) {
            return flat;
        }
        if (!root.isObject()) {
            throw new ConfigException("configuration file " + file + " must be a YAML mapping");
        }
        flatten("", root, flat, file);
        return flat;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out, Path file) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
            JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(key, value, out, file);
            } else if (value.isArray()) {
                List<String> items = new ArrayList<>();
                value.forEach(v -> items.add(v.asText()));
                out.put(key, items.stream().collect(Collectors.joining(",")));
            } else if (value.isNull()) {
                out.put(key, "");
            } else {
                out.put(key, value.asText());
            }
        }
    }
}
