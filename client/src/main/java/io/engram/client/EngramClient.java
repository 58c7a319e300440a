package io.engram.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.client.model.ApiKey;
import io.engram.client.model.ContextBlock;
import io.engram.client.model.ContextRequest;
import io.engram.client.model.Forgotten;
import io.engram.client.model.KeyRequest;
import io.engram.client.model.ListQuery;
import io.engram.client.model.MaintenanceRun;
import io.engram.client.model.Memory;
import io.engram.client.model.MemoryEdit;
import io.engram.client.model.MemoryHistory;
import io.engram.client.model.MemoryPage;
import io.engram.client.model.Restored;
import io.engram.client.model.RetentionRule;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.SearchResponse;
import io.engram.client.model.StoreDecision;
import io.engram.client.model.StoreRequest;
import io.engram.client.model.TurnBatch;
import io.engram.client.model.TurnsAccepted;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A client of Engram's HTTP API: every operation of {@code openapi.yaml}, each as a blocking call
 * and as an {@code …Async} call returning a {@link CompletableFuture}. Answers 429 and 503 are
 * retried after their {@code Retry-After}; other refusals throw {@link EngramException} (a subclass
 * per kind) naming the field at fault and the request id. Thread-safe; one per application.
 *
 * <p>One class on purpose: it is the client's whole surface, a short blocking and asynchronous pair
 * per operation, so that a caller finds every call in one place; the HTTP, retries and errors are
 * {@code Transport}'s, the types are in {@code model}.
 *
 * <pre>{@code
 * EngramClient engram = EngramClient.builder("http://127.0.0.1:8080", apiKey).build();
 * engram.sendTurns(TurnBatch.of("ann", "s1", List.of(Turn.user("t1", "I moved to Lisbon"))));
 * SearchResponse r = engram.search(SearchRequest.of("ann", "where do I live?"));
 * }</pre>
 */
public final class EngramClient {

    private final Transport transport;

    private EngramClient(Transport transport) {
        this.transport = transport;
    }

    public static Builder builder(String baseUrl, String apiKey) {
        return new Builder(baseUrl, apiKey);
    }

    /** Settings of a client; the defaults suit a service on the same network. */
    public static final class Builder {
        private final String baseUrl;
        private final String apiKey;
        private Duration timeout = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private int maxRetries = 3;
        private Duration firstPause = Duration.ofMillis(200);
        private HttpClient http;

        private Builder(String baseUrl, String apiKey) {
            this.baseUrl = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
            this.apiKey = apiKey;
        }

        /** How long one attempt may take (default 10 s). */
        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
            return this;
        }

        /** Attempts after a 429 or 503 (default 3); each waits for Retry-After. */
        public Builder maxRetries(int value) {
            this.maxRetries = value;
            return this;
        }

        /** The pause before the first retry when the answer names none; it doubles after. */
        public Builder firstPause(Duration value) {
            this.firstPause = value;
            return this;
        }

        /** An HTTP client of your own (proxy, executor, TLS). */
        public Builder httpClient(HttpClient value) {
            this.http = value;
            return this;
        }

        public EngramClient build() {
            HttpClient client =
                    http != null
                            ? http
                            : HttpClient.newBuilder()
                                    .version(HttpClient.Version.HTTP_1_1)
                                    .connectTimeout(connectTimeout)
                                    .build();
            return new EngramClient(
                    new Transport(
                            client, URI.create(baseUrl), apiKey, timeout, maxRetries, firstPause));
        }
    }

    // Turns and recall

    /** Sends turns for extraction; their memories become searchable within seconds. */
    public CompletableFuture<TurnsAccepted> sendTurnsAsync(TurnBatch batch) {
        return transport.call("POST", "v1/turns", batch, Map.of(), TurnsAccepted.class);
    }

    public TurnsAccepted sendTurns(TurnBatch batch) {
        return join(sendTurnsAsync(batch));
    }

    /** Recalls the memories relevant to a message. */
    public CompletableFuture<SearchResponse> searchAsync(SearchRequest request) {
        return transport.call(
                "POST", "v1/memories/search", request, Map.of(), SearchResponse.class);
    }

    public SearchResponse search(SearchRequest request) {
        return join(searchAsync(request));
    }

    /** The relevant memories packed into a token budget, as a system message for a prompt. */
    public CompletableFuture<ContextBlock> contextAsync(ContextRequest request) {
        return transport.call("POST", "v1/context", request, Map.of(), ContextBlock.class);
    }

    public ContextBlock context(ContextRequest request) {
        return join(contextAsync(request));
    }

    // Memories

    /** Stores a memory explicitly, decided like an extracted fact. */
    public CompletableFuture<StoreDecision> storeAsync(StoreRequest request) {
        return transport.call("POST", "v1/memories", request, Map.of(), StoreDecision.class);
    }

    public StoreDecision store(StoreRequest request) {
        return join(storeAsync(request));
    }

    /** One page of a user's memories, newest first; {@code cursor} null for the first. */
    public CompletableFuture<MemoryPage> listAsync(ListQuery query, String cursor) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("user_id", query.userId());
        q.put("project_id", query.projectId());
        q.put("type", query.type());
        q.put("status", query.status());
        q.put("tier", query.tier());
        q.put("tag", query.tag());
        q.put("limit", query.limit());
        q.put("cursor", cursor);
        return transport.call("GET", "v1/memories" + query(q), null, Map.of(), MemoryPage.class);
    }

    public MemoryPage list(ListQuery query, String cursor) {
        return join(listAsync(query, cursor));
    }

    /** Every memory the query matches, page after page as the iteration reaches them. */
    public Iterable<Memory> listAll(ListQuery query) {
        return () ->
                new Iterator<>() {
                    private MemoryPage page = list(query, null);
                    private int next;

                    @Override
                    public boolean hasNext() {
                        while (next >= page.memories().size() && page.nextCursor() != null) {
                            page = list(query, page.nextCursor());
                            next = 0;
                        }
                        return next < page.memories().size();
                    }

                    @Override
                    public Memory next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        return page.memories().get(next++);
                    }
                };
    }

    public CompletableFuture<Memory> getAsync(String userId, String id) {
        return transport.call(
                "GET",
                memoryPath(id, "") + query(Map.of("user_id", userId)),
                null,
                Map.of(),
                Memory.class);
    }

    public Memory get(String userId, String id) {
        return join(getAsync(userId, id));
    }

    /**
     * Edits a memory (a new version). With {@code expectedVersion}, the edit is refused ({@link
     * EngramException.Conflict}, 412) if the memory is no longer at that version.
     */
    public CompletableFuture<Memory> editAsync(
            String userId, String id, MemoryEdit edit, Integer expectedVersion) {
        Map<String, String> headers =
                expectedVersion == null
                        ? Map.of()
                        : Map.of("If-Match", "\"" + expectedVersion + "\"");
        return transport.call(
                "PATCH",
                memoryPath(id, "") + query(Map.of("user_id", userId)),
                edit,
                headers,
                Memory.class);
    }

    public Memory edit(String userId, String id, MemoryEdit edit, Integer expectedVersion) {
        return join(editAsync(userId, id, edit, expectedVersion));
    }

    public CompletableFuture<Void> deleteAsync(String userId, String id) {
        return transport.call(
                "DELETE",
                memoryPath(id, "") + query(Map.of("user_id", userId)),
                null,
                Map.of(),
                Void.class);
    }

    public void delete(String userId, String id) {
        join(deleteAsync(userId, id));
    }

    /** The memory, the versions it superseded and its change events. */
    public CompletableFuture<MemoryHistory> historyAsync(String userId, String id) {
        return transport.call(
                "GET",
                memoryPath(id, "/history") + query(Map.of("user_id", userId)),
                null,
                Map.of(),
                MemoryHistory.class);
    }

    public MemoryHistory history(String userId, String id) {
        return join(historyAsync(userId, id));
    }

    /** Brings back an archived memory (or a consolidated memory's originals). */
    public CompletableFuture<Restored> restoreAsync(String userId, String id) {
        return transport.call(
                "POST",
                memoryPath(id, "/restore") + query(Map.of("user_id", userId)),
                null,
                Map.of(),
                Restored.class);
    }

    public Restored restore(String userId, String id) {
        return join(restoreAsync(userId, id));
    }

    /** Forgets everything of a user (in one project, or all when {@code projectId} is null). */
    public CompletableFuture<Forgotten> forgetAsync(String userId, String projectId) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("user_id", userId);
        q.put("project_id", projectId);
        return transport.call("DELETE", "v1/memories" + query(q), null, Map.of(), Forgotten.class);
    }

    public Forgotten forget(String userId, String projectId) {
        return join(forgetAsync(userId, projectId));
    }

    // Administration

    /** Creates an API key; its secret ({@link ApiKey#key()}) is shown this once. */
    public CompletableFuture<ApiKey> createKeyAsync(KeyRequest request) {
        return transport.call("POST", "v1/admin/keys", request, Map.of(), ApiKey.class);
    }

    public ApiKey createKey(KeyRequest request) {
        return join(createKeyAsync(request));
    }

    /** The keys of the caller's tenant, or of {@code tenantId} (an operator key). */
    public CompletableFuture<List<ApiKey>> listKeysAsync(String tenantId) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("tenant_id", tenantId);
        return transport.call("GET", "v1/admin/keys" + query(q), null, KEYS).thenApply(Keys::keys);
    }

    public List<ApiKey> listKeys(String tenantId) {
        return join(listKeysAsync(tenantId));
    }

    public CompletableFuture<Void> revokeKeyAsync(String id) {
        return transport.call("DELETE", "v1/admin/keys/" + segment(id), null, Map.of(), Void.class);
    }

    public void revokeKey(String id) {
        join(revokeKeyAsync(id));
    }

    /** Requests a maintenance run (decay, consolidate, retention, quota) for the key's tenant. */
    public CompletableFuture<MaintenanceRun> requestMaintenanceAsync(String job) {
        return transport.call(
                "POST",
                "v1/admin/maintenance/" + segment(job),
                null,
                Map.of(),
                MaintenanceRun.class);
    }

    public MaintenanceRun requestMaintenance(String job) {
        return join(requestMaintenanceAsync(job));
    }

    public CompletableFuture<MaintenanceRun> maintenanceRunAsync(String runId) {
        return transport.call(
                "GET",
                "v1/admin/maintenance/runs/" + segment(runId),
                null,
                Map.of(),
                MaintenanceRun.class);
    }

    public MaintenanceRun maintenanceRun(String runId) {
        return join(maintenanceRunAsync(runId));
    }

    public CompletableFuture<List<RetentionRule>> retentionRulesAsync() {
        return transport
                .call("GET", "v1/admin/retention-rules", null, RULES)
                .thenApply(Rules::rules);
    }

    public List<RetentionRule> retentionRules() {
        return join(retentionRulesAsync());
    }

    /** Sets the rule of one level; a null {@code keepDays} keeps that level's memories forever. */
    public CompletableFuture<RetentionRule> setRetentionRuleAsync(RetentionRule rule) {
        // A tree, not a record: keep_days is written even when null ("forever").
        ObjectNode body = Transport.JSON.createObjectNode();
        if (rule.projectId() != null) {
            body.put("project_id", rule.projectId());
        }
        if (rule.category() != null) {
            body.put("category", rule.category());
        }
        body.put("keep_days", rule.keepDays());
        if (rule.graceDays() != null) {
            body.put("grace_days", rule.graceDays());
        }
        return transport.call(
                "PUT", "v1/admin/retention-rules", body, Map.of(), RetentionRule.class);
    }

    public RetentionRule setRetentionRule(RetentionRule rule) {
        return join(setRetentionRuleAsync(rule));
    }

    public CompletableFuture<Void> deleteRetentionRuleAsync(String id) {
        return transport.call(
                "DELETE", "v1/admin/retention-rules/" + segment(id), null, Map.of(), Void.class);
    }

    public void deleteRetentionRule(String id) {
        join(deleteRetentionRuleAsync(id));
    }

    // Health

    /** Whether the process is up ({@code /health/live}). */
    public CompletableFuture<Boolean> liveAsync() {
        return transport.send("GET", "health/live", null, Map.of()).thenApply(a -> true);
    }

    public boolean live() {
        return join(liveAsync());
    }

    /** The Prometheus text exposition ({@code /metrics}). */
    public CompletableFuture<String> metricsAsync() {
        return transport
                .send("GET", "metrics", null, Map.of())
                .thenApply(a -> new String(a.raw(), StandardCharsets.UTF_8));
    }

    public String metrics() {
        return join(metricsAsync());
    }

    /** Each dependency's state and the write plane's ({@code /health/ready}); throws when down. */
    public CompletableFuture<JsonNode> readyAsync() {
        return transport.send("GET", "health/ready", null, Map.of()).thenApply(a -> a.body());
    }

    public JsonNode ready() {
        return join(readyAsync());
    }

    /** Whether the extraction job keeps up ({@code /health/write-plane}); throws when stalled. */
    public CompletableFuture<JsonNode> writePlaneAsync() {
        return transport.send("GET", "health/write-plane", null, Map.of()).thenApply(a -> a.body());
    }

    public JsonNode writePlane() {
        return join(writePlaneAsync());
    }

    // Plumbing

    private record Keys(List<ApiKey> keys) {}

    private record Rules(List<RetentionRule> rules) {}

    private static final TypeReference<Keys> KEYS = new TypeReference<>() {};
    private static final TypeReference<Rules> RULES = new TypeReference<>() {};

    private static String memoryPath(String id, String tail) {
        return "v1/memories/" + segment(id) + tail;
    }

    private static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(Map<String, ?> params) {
        StringBuilder q = new StringBuilder();
        params.forEach(
                (k, v) -> {
                    if (v != null) {
                        q.append(q.length() == 0 ? '?' : '&')
                                .append(k)
                                .append('=')
                                .append(URLEncoder.encode(v.toString(), StandardCharsets.UTF_8));
                    }
                });
        return q.toString();
    }

    /** The answer of a blocking call, or its {@link EngramException}. */
    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof EngramException ee) {
                throw ee;
            }
            throw new EngramException("call failed: " + e.getCause(), e.getCause());
        }
    }
}
