package io.engram.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir Path dir;

    @Test
    void defaultsRunTheLocalStackOnLoopback() {
        EngramConfig config = EngramConfig.defaults();
        assertThat(config.server().host()).isEqualTo("127.0.0.1");
        assertThat(config.server().port()).isEqualTo(8080);
        assertThat(config.home()).isEqualTo(Path.of(System.getProperty("user.home"), ".engram"));
        assertThat(config.kafka().turnsTopic()).isEqualTo("engram.turns");
        assertThat(config.kafka().dlqTopic()).isEqualTo("engram.turns.dlq");
        assertThat(config.postgres().url()).isEmpty();
        assertThat(config.memoryIndexAlias()).isEqualTo("engram-memories-minilm-l6-v2-int8");
        assertThat(config.auth().bootstrapKey()).isEmpty();
    }

    @Test
    void fileOverridesDefaultsAndEnvironmentOverridesFile() throws Exception {
        Path file = dir.resolve("engram.yaml");
        Files.writeString(
                file,
                "server:\n  port: 9000\n  host: 127.0.0.2\nkafka:\n  turns_topic: chat.turns\n");
        EngramConfig config =
                ConfigLoader.load(
                        Optional.of(file),
                        Map.of("ENGRAM_PORT", "9100", "ENGRAM_HOME", "/data/engram"));
        assertThat(config.server().port()).isEqualTo(9100);
        assertThat(config.server().host()).isEqualTo("127.0.0.2");
        assertThat(config.kafka().turnsTopic()).isEqualTo("chat.turns");
        assertThat(config.home()).isEqualTo(Path.of("/data/engram"));
    }

    @Test
    void configFileCanBeNamedByEnvironment() throws Exception {
        Path file = dir.resolve("other.yaml");
        Files.writeString(file, "opensearch:\n  shards: 3\n");
        EngramConfig config =
                ConfigLoader.load(Optional.empty(), Map.of("ENGRAM_CONFIG", file.toString()));
        assertThat(config.openSearch().shards()).isEqualTo(3);
    }

    @Test
    void genericEnvironmentNamesFollowTheDottedKey() {
        EngramConfig config =
                ConfigLoader.load(
                        Optional.empty(),
                        Map.of(
                                "ENGRAM_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092",
                                "ENGRAM_BOOTSTRAP_KEY", KEY,
                                "ENGRAM_POSTGRES_PASSWORD", "pw"));
        assertThat(config.kafka().bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(config.auth().bootstrapKey()).contains(KEY);
        assertThat(config.postgres().password()).isEqualTo("pw");
        assertThat(config.toString()).doesNotContain(KEY).doesNotContain("password=pw");
    }

    private static final String KEY = "ek_00112233445566778899aabbccddeeff00112233";

    @Test
    void kafkaTlsSettingsBecomeClientProperties() {
        EngramConfig.Kafka plain = ConfigLoader.load(Optional.empty(), Map.of()).kafka();
        assertThat(plain.security()).isEmpty();
        EngramConfig.Kafka tls =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_KAFKA_BOOTSTRAP_SERVERS", "b1:9094",
                                        "ENGRAM_KAFKA_SECURITY_PROTOCOL", "SSL",
                                        "ENGRAM_KAFKA_SSL_TRUSTSTORE", "/etc/engram/ca.pem"))
                        .kafka();
        assertThat(tls.clientProperties())
                .containsEntry("bootstrap.servers", "b1:9094")
                .containsEntry("security.protocol", "SSL")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.location", "/etc/engram/ca.pem");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_KAFKA_SECURITY_PROTOCOL", "TLS")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'kafka.security_protocol'")
                .hasMessageContaining("expected one of PLAINTEXT, SSL, SASL_SSL, got 'TLS'");
    }

    @Test
    void kafkaScramLoginBecomesClientPropertiesWithoutShowingThePassword() {
        EngramConfig.Kafka k =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_KAFKA_BOOTSTRAP_SERVERS", "b1:9096",
                                        "ENGRAM_KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                                        "ENGRAM_KAFKA_SASL_USERNAME", "engram",
                                        "ENGRAM_KAFKA_SASL_PASSWORD", "p\"w\\1"))
                        .kafka();
        assertThat(k.clientProperties())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"engram\" password=\"p\\\"w\\\\1\";");
        assertThat(k.toString()).contains("SCRAM-SHA-512 as engram").doesNotContain("p\"w");
    }

    @Test
    void aKafkaLoginNeedsSaslSslAndSaslSslNeedsALogin() {
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                                                "ENGRAM_KAFKA_SASL_USERNAME", "engram")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("ENGRAM_KAFKA_SASL_PASSWORD is not set");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'kafka.sasl_username' is not set");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_KAFKA_SECURITY_PROTOCOL", "SSL",
                                                "ENGRAM_KAFKA_SASL_USERNAME", "engram",
                                                "ENGRAM_KAFKA_SASL_PASSWORD", "secret")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'kafka.security_protocol' is SSL")
                .hasMessageNotContaining("secret");
    }

    @Test
    void aPostgresPasswordFileIsReadAtEveryUseAndMustBeReadableAtStart() throws Exception {
        Path secret = dir.resolve("pg-password");
        Files.writeString(secret, "first\n");
        EngramConfig.Postgres pg =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_POSTGRES_PASSWORD",
                                        "ignored",
                                        "ENGRAM_POSTGRES_PASSWORD_FILE",
                                        secret.toString()))
                        .postgres();
        assertThat(pg.password()).isEqualTo("first");
        Files.writeString(secret, "second");
        assertThat(pg.password()).as("a rotated secret").isEqualTo("second");
        assertThat(pg.toString()).contains(secret.toString()).doesNotContain("second");
        Files.writeString(secret, "{\"username\":\"engram\",\"password\":\"th1rd\"}\n");
        assertThat(pg.password()).as("an RDS-managed secret's JSON").isEqualTo("th1rd");
        Files.writeString(secret, "{\"username\":\"engram\"}");
        assertThatThrownBy(pg::password).hasMessageContaining("without a \"password\" string");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_POSTGRES_PASSWORD_FILE",
                                                dir.resolve("missing").toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'postgres.password_file'")
                .hasMessageContaining("is not a readable file");
    }

    @Test
    void redisCredentialsComeFromTheirOwnSettingsNeverTheUrl() {
        EngramConfig.Redis r =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_REDIS_URL", "rediss://cache.internal:6379",
                                        "ENGRAM_REDIS_USERNAME", "engram",
                                        "ENGRAM_REDIS_PASSWORD", "t0ken"))
                        .redis();
        assertThat(r.username()).isEqualTo("engram");
        assertThat(r.password()).isEqualTo("t0ken");
        assertThat(r.toString()).contains("username=engram").doesNotContain("t0ken");
        assertThat(EngramConfig.defaults().redis().password()).isEmpty();
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_REDIS_URL", "redis://:t0ken@cache:6379")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'redis.url' must not hold credentials")
                .hasMessageContaining("ENGRAM_REDIS_PASSWORD")
                .hasMessageNotContaining("t0ken");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_REDIS_URL", "redis://cache:6379",
                                                "ENGRAM_REDIS_USERNAME", "engram")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'redis.username' is set but ENGRAM_REDIS_PASSWORD is not");
    }

    @Test
    void openSearchRequestsAreSignedForTheRegionInTheUrlUnlessOneIsNamed() {
        assertThat(EngramConfig.defaults().openSearch().auth().signed()).isFalse();
        var fromUrl =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_OPENSEARCH_URL",
                                        "https://search-engram-abc123.eu-west-1.es.amazonaws.com",
                                        "ENGRAM_OPENSEARCH_AUTH",
                                        "aws-sigv4"))
                        .openSearch()
                        .auth();
        assertThat(fromUrl.signed()).isTrue();
        assertThat(fromUrl.region()).isEqualTo("eu-west-1");
        assertThat(fromUrl.service()).isEqualTo("es");
        var named =
                ConfigLoader.load(
                                Optional.empty(),
                                Map.of(
                                        "ENGRAM_OPENSEARCH_URL", "https://vpc-endpoint.internal",
                                        "ENGRAM_OPENSEARCH_AUTH", "aws-sigv4",
                                        "ENGRAM_OPENSEARCH_AWS_REGION", "us-east-2",
                                        "ENGRAM_OPENSEARCH_AWS_SERVICE", "aoss"))
                        .openSearch()
                        .auth();
        assertThat(named.region()).isEqualTo("us-east-2");
        assertThat(named.service()).isEqualTo("aoss");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_OPENSEARCH_URL",
                                                        "https://vpc-endpoint.internal",
                                                "ENGRAM_OPENSEARCH_AUTH", "aws-sigv4")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'opensearch.aws_region' is not set");
    }

    @Test
    void aMalformedBootstrapKeyIsRefusedWithoutBeingShown() {
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_BOOTSTRAP_KEY", "ek_my-secret-admin")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'auth.bootstrap_key'")
                .hasMessageContaining("ENGRAM_BOOTSTRAP_KEY")
                .hasMessageContaining("expected 'ek_' and 40 lower-case hex digits")
                .hasMessageNotContaining("my-secret");
    }

    @Test
    void unknownKeyInFileIsRejectedByName() throws Exception {
        Path file = dir.resolve("engram.yaml");
        Files.writeString(file, "sever:\n  port: 9000\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown configuration key 'sever.port'");
    }

    @Test
    void invalidValueNamesKeyOriginAndProblem() {
        assertThatThrownBy(
                        () -> ConfigLoader.load(Optional.empty(), Map.of("ENGRAM_PORT", "eighty")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'server.port'")
                .hasMessageContaining("ENGRAM_PORT")
                .hasMessageContaining("expected a whole number");
        assertThatThrownBy(
                        () -> ConfigLoader.load(Optional.empty(), Map.of("ENGRAM_PORT", "70000")))
                .hasMessageContaining("from 0 to 65535");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_OPENSEARCH_URL", "ftp://somewhere")))
                .hasMessageContaining("'opensearch.url'")
                .hasMessageContaining("http or https");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_KAFKA_BOOTSTRAP_SERVERS", "localhost")))
                .hasMessageContaining("'kafka.bootstrap_servers'")
                .hasMessageContaining("host:port");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_EMBEDDING_VERSION", "minilm-l6-v2-fp16")))
                .hasMessageContaining("'embedding.version'")
                .hasMessageContaining("unknown embedding version");
    }

    @Test
    void queryEmbeddingWorkersDefaultToTwoAndAreBounded() {
        assertThat(EngramConfig.defaults().embedding().queryWorkers()).isEqualTo(2);
        assertThat(
                        ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_EMBEDDING_QUERY_WORKERS", "6"))
                                .embedding()
                                .queryWorkers())
                .isEqualTo(6);
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_EMBEDDING_QUERY_WORKERS", "0")))
                .hasMessageContaining("'embedding.query_workers'");
    }

    @Test
    void keyCacheTimeHasADefaultAndBounds() {
        assertThat(EngramConfig.defaults().auth().keyCacheMs()).isEqualTo(30_000);
        assertThat(
                        ConfigLoader.load(Optional.empty(), Map.of("ENGRAM_AUTH_KEY_CACHE_MS", "0"))
                                .auth()
                                .keyCacheMs())
                .isZero();
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(), Map.of("ENGRAM_AUTH_KEY_CACHE_MS", "-1")))
                .hasMessageContaining("'auth.key_cache_ms'");
    }

    @Test
    void recallDeadlineAndInFlightLimitHaveDefaultsAndBounds() {
        assertThat(EngramConfig.defaults().server().recallDeadlineMs()).isEqualTo(1000);
        assertThat(EngramConfig.defaults().server().maxRecallsInFlight()).isEqualTo(256);
        EngramConfig set =
                ConfigLoader.load(
                        Optional.empty(),
                        Map.of(
                                "ENGRAM_SERVER_RECALL_DEADLINE_MS", "300",
                                "ENGRAM_SERVER_MAX_RECALLS_IN_FLIGHT", "32"));
        assertThat(set.server().recallDeadlineMs()).isEqualTo(300);
        assertThat(set.server().maxRecallsInFlight()).isEqualTo(32);
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_SERVER_RECALL_DEADLINE_MS", "10")))
                .hasMessageContaining("'server.recall_deadline_ms'");
    }

    @Test
    void llmIsOffByDefaultAndDedupThresholdsMustBeOrdered() {
        EngramConfig config = EngramConfig.defaults();
        assertThat(config.llm().enabled()).isFalse();
        assertThat(config.dedup().updateSimilarity()).isEqualTo(0.9);
        assertThat(config.embedding().modelPath(Path.of("/h"))).isEqualTo(Path.of("/h/models"));
        assertThat(
                        ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of(
                                                "ENGRAM_LLM_URL",
                                                "http://127.0.0.1:9999/v1",
                                                "ENGRAM_LLM_API_KEY",
                                                "sk-x"))
                                .llm()
                                .enabled())
                .isTrue();
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_DEDUP_RELATED_SIMILARITY", "0.95")))
                .hasMessageContaining("'dedup.related_similarity'");
        assertThatThrownBy(
                        () ->
                                ConfigLoader.load(
                                        Optional.empty(),
                                        Map.of("ENGRAM_DEDUP_UPDATE_SIMILARITY", "1.5")))
                .hasMessageContaining("expected a number from 0 to 1");
    }

    @Test
    void secretsAreRefusedInTheFile() throws Exception {
        Path file = dir.resolve("engram.yaml");
        Files.writeString(file, "postgres:\n  password: hunter2\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'postgres.password' is a secret")
                .hasMessageContaining("ENGRAM_POSTGRES_PASSWORD");
    }

    @Test
    void missingOrMalformedFileIsNamed() throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(dir.resolve("none.yaml")), Map.of()))
                .hasMessageContaining("does not exist");
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "server: [port: 1\n");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(bad), Map.of()))
                .hasMessageContaining("is not valid YAML");
    }
}
