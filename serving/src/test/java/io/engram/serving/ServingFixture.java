package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.auth.ApiKeys;
import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.embedding.TestEmbedders;
import io.engram.events.TopicBootstrap;
import io.engram.services.PostgresServer;
import io.engram.services.SharedServices;
import io.engram.store.StorageBootstrap;
import io.engram.store.opensearch.IndexBootstrap;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.postgres.SchemaMigrator;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.opensearch.client.opensearch.OpenSearchClient;

/** A serving tier on real services, with its own database, index and topic, and HTTP helpers. */
final class ServingFixture implements AutoCloseable {

    final EngramConfig config;
    final ServingApp app;
    final String base;
    final OpenSearchClient openSearch;
    private final HttpClient http = HttpClient.newHttpClient();

    ServingFixture(String name, String openSearchUrl) throws Exception {
        this(name, openSearchUrl, Map.of());
    }

    /** With more settings, as {@code ENGRAM_*} variables. */
    ServingFixture(String name, String openSearchUrl, Map<String, String> settings)
            throws Exception {
        this(name, openSearchUrl, SharedServices.redis().url(), settings);
    }

    /** With a Redis of its own. */
    ServingFixture(String name, String openSearchUrl, String redisUrl, Map<String, String> settings)
            throws Exception {
        PostgresServer pg = SharedServices.postgres();
        try (Connection c = pg.connect("engram")) {
            c.createStatement().execute("create database " + name);
        }
        String jdbc = pg.jdbcUrl(name);
        SchemaMigrator.migrate(jdbc, pg.user(), pg.password());
        String bootstrap = SharedServices.kafka().bootstrapServers();
        TopicBootstrap.ensure(bootstrap, List.of("turns." + name), 1, (short) 1);
        Map<String, String> env = new java.util.HashMap<>(settings);
        env.putAll(
                Map.of(
                        "ENGRAM_HOME",
                        Path.of(System.getProperty("java.io.tmpdir"), "engram-serving-it")
                                .toString(),
                        "ENGRAM_EMBEDDING_MODEL_DIR",
                        TestEmbedders.MODEL_DIR.toString(),
                        "ENGRAM_PORT",
                        "0",
                        "ENGRAM_KAFKA_TURNS_TOPIC",
                        "turns." + name,
                        "ENGRAM_OPENSEARCH_INDEX_PREFIX",
                        "mem-" + name.replace('_', '-')));
        EngramConfig base = ConfigLoader.load(Optional.empty(), env);
        config =
                base.withServices(
                        jdbc, pg.user(), pg.password(), bootstrap, openSearchUrl, redisUrl);
        openSearch = OpenSearchClients.create(openSearchUrl, Duration.ofSeconds(30));
        IndexBootstrap.ensure(openSearch, config.memoryIndexAlias(), 1, 0);
        app = ServingApp.start(config);
        this.base = "http://127.0.0.1:" + app.port();
    }

    /** Registers a key; returns the secret. */
    String key(String tenant, String project, String environment, String... scopes) {
        String key = ApiKeys.generate();
        StorageBootstrap.registerKey(
                config.postgres(), key, tenant, project, environment, List.of(scopes), "test");
        return key;
    }

    record Reply(int status, JsonObject json, String raw, HttpResponse<String> response) {}

    Reply call(String method, String path, String key, String body) throws Exception {
        return send(base, method, path, key, body, Map.of());
    }

    /** With more request headers. */
    Reply call(String method, String path, String key, String body, Map<String, String> headers)
            throws Exception {
        return send(base, method, path, key, body, headers);
    }

    /** A request without a body to another instance, at {@code otherBase}. */
    Reply callAt(String otherBase, String method, String path, String key) {
        try {
            return send(otherBase, method, path, key, null, Map.of());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Reply send(
            String base,
            String method,
            String path,
            String key,
            String body,
            Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        b.header("Content-Type", "application/json");
        b.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonObject json = null;
        if (r.body() != null && r.body().startsWith("{")) {
            json = new JsonObject(r.body());
        }
        return new Reply(r.statusCode(), json, r.body(), r);
    }

    Reply post(String path, String key, JsonObject body) throws Exception {
        return call("POST", path, key, body.encode());
    }

    /** Revokes the API key with this id through the admin API; returns the reply. */
    Reply revokeKey(String keyId, String adminKey) throws Exception {
        return call("DELETE", "/v1/admin/keys/" + keyId, adminKey, null);
    }

    /** Stores a memory through the API ({@code body} of {@code POST /v1/memories}); expects 201. */
    JsonObject store(String key, JsonObject body) throws Exception {
        Reply r = post("/v1/memories", key, body);
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.json();
    }

    void refresh() {
        IndexInspection.refresh(openSearch, config.memoryIndexAlias());
    }

    @Override
    public void close() {
        app.close();
    }
}
