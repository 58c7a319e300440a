package io.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.engram.client.model.ContextBlock;
import io.engram.client.model.Forgotten;
import io.engram.client.model.HistoryMessage;
import io.engram.client.model.KeyRequest;
import io.engram.client.model.Memory;
import io.engram.client.model.MemoryEdit;
import io.engram.client.model.MemoryPage;
import io.engram.client.model.Restored;
import io.engram.client.model.RetentionRule;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.SearchResponse;
import io.engram.client.model.StoreDecision;
import io.engram.client.model.StoreRequest;
import io.engram.client.model.Turn;
import io.engram.client.model.TurnBatch;
import io.engram.client.model.TurnsAccepted;
import io.engram.client.model.Weights;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client's types against the API's contract ({@code serving/.../openapi.yaml}): every field of
 * a request or answer the contract names has a counterpart here (a new field without one fails the
 * build), and no request sends a field the contract does not know (the server refuses those).
 */
class ContractTest {

    private static JsonNode api;

    @BeforeAll
    static void load() throws Exception {
        api =
                new ObjectMapper(new YAMLFactory())
                        .readTree(Path.of("../serving/src/main/resources/openapi.yaml").toFile());
    }

    private static JsonNode schema(String name) {
        return api.path("components").path("schemas").path(name);
    }

    private static JsonNode operation(String path, String method) {
        return api.path("paths").path(path).path(method);
    }

    private static JsonNode requestBody(String path, String method) {
        return operation(path, method)
                .path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema");
    }

    private static JsonNode answer(String path, String method, String status) {
        return operation(path, method)
                .path("responses")
                .path(status)
                .path("content")
                .path("application/json")
                .path("schema");
    }

    private static Set<String> properties(JsonNode schema) {
        Set<String> out = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** A record's fields as they go on the wire. */
    private static Set<String> fields(Class<? extends Record> type) {
        PropertyNamingStrategies.SnakeCaseStrategy snake =
                new PropertyNamingStrategies.SnakeCaseStrategy();
        return Arrays.stream(type.getRecordComponents())
                .map(c -> snake.translate(c.getName()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Sent: the same fields both ways. */
    private static void request(JsonNode schema, Class<? extends Record> type) {
        assertThat(properties(schema)).as(type.getSimpleName()).isNotEmpty();
        assertThat(fields(type)).as(type.getSimpleName()).isEqualTo(properties(schema));
    }

    /** Received: every field of the contract has a counterpart. */
    private static void answer(JsonNode schema, Class<? extends Record> type) {
        assertThat(properties(schema)).as(type.getSimpleName()).isNotEmpty();
        assertThat(fields(type)).as(type.getSimpleName()).containsAll(properties(schema));
    }

    @Test
    void requests() {
        request(schema("TurnBatch"), TurnBatch.class);
        request(schema("TurnBatch").path("properties").path("turns").path("items"), Turn.class);
        request(schema("SearchRequest"), SearchRequest.class);
        request(
                schema("SearchRequest").path("properties").path("history").path("items"),
                HistoryMessage.class);
        request(schema("SearchRequest").path("properties").path("weights"), Weights.class);
        request(schema("StoreRequest"), StoreRequest.class);
        request(requestBody("/v1/memories/{id}", "patch"), MemoryEdit.class);
        request(requestBody("/v1/admin/keys", "post"), KeyRequest.class);
        // A rule as sent: its level and days (the id and time come back).
        assertThat(fields(RetentionRule.class))
                .containsAll(properties(requestBody("/v1/admin/retention-rules", "put")));
        // The context request: a search plus its budget.
        JsonNode context = requestBody("/v1/context", "post").path("allOf");
        Iterator<JsonNode> parts = context.elements();
        assertThat(parts.next().path("$ref").asText()).endsWith("/SearchRequest");
        assertThat(properties(parts.next())).containsExactly("token_budget");
        assertThat(fields(io.engram.client.model.ContextRequest.class))
                .containsExactly("search", "token_budget");
    }

    @Test
    void answers() {
        answer(schema("SearchResponse"), SearchResponse.class);
        answer(
                schema("SearchResponse").path("properties").path("strategy"),
                SearchResponse.Strategy.class);
        answer(
                schema("SearchResponse")
                        .path("properties")
                        .path("strategy")
                        .path("properties")
                        .path("time_window"),
                SearchResponse.TimeWindow.class);
        answer(
                schema("SearchResponse").path("properties").path("hops").path("items"),
                SearchResponse.Hop.class);
        answer(schema("Memory"), Memory.class);
        answer(answer("/v1/turns", "post", "202"), TurnsAccepted.class);
        answer(answer("/v1/context", "post", "200"), ContextBlock.class);
        answer(answer("/v1/memories", "post", "201"), StoreDecision.class);
        answer(answer("/v1/memories", "get", "200"), MemoryPage.class);
        answer(answer("/v1/memories", "delete", "200"), Forgotten.class);
        answer(answer("/v1/memories/{id}/restore", "post", "200"), Restored.class);
    }

    @Test
    void everyOperationHasAMethod() {
        // Each path and method of the contract, and the client method that calls it.
        Set<String> operations = new TreeSet<>();
        api.path("paths")
                .fields()
                .forEachRemaining(
                        p ->
                                p.getValue()
                                        .fieldNames()
                                        .forEachRemaining(
                                                m -> {
                                                    if (!m.equals("parameters")) {
                                                        operations.add(
                                                                m.toUpperCase() + " " + p.getKey());
                                                    }
                                                }));
        assertThat(operations)
                .containsExactlyInAnyOrderElementsOf(EngramClientOperations.COVERED.keySet());
        Set<String> methods =
                Arrays.stream(EngramClient.class.getMethods())
                        .map(java.lang.reflect.Method::getName)
                        .collect(Collectors.toSet());
        assertThat(methods).containsAll(EngramClientOperations.COVERED.values());
    }
}
