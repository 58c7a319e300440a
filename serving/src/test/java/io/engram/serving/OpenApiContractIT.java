package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.engram.services.SharedServices;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The request validation is written by hand; this holds it to the OpenAPI document the service
 * serves: every documented operation is routed, and every documented request body (and the objects
 * nested in it) accepts exactly the fields the document names — an undocumented one is refused
 * naming it, a documented one is never called unknown.
 */
class OpenApiContractIT {

    private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static ServingFixture f;
    private static String key;
    private static JsonNode doc;

    /** One documented operation: its method, the path as documented, its request body's schema. */
    private record Operation(String method, String path, List<JsonNode> parameters, JsonNode body) {

        /** The path with its ids filled in and, when the operation takes one, the user's id. */
        String concretePath() {
            return withIds() + (byUser() ? "?user_id=contract-user" : "");
        }

        String withIds() {
            return path.replace("{id}", UUID.randomUUID().toString()).replace("{job}", "decay");
        }

        boolean byUser() {
            return parameters.stream()
                    .anyMatch(p -> "user_id".equals(resolve(p).path("name").asText()));
        }
    }

    @BeforeAll
    static void start() throws Exception {
        f = new ServingFixture("openapi_contract_it", SharedServices.openSearch().url());
        key = f.key("contract", "default", "prod", "read", "write", "admin", "operator");
        try (InputStream in = ServingApp.class.getResourceAsStream("/openapi.yaml")) {
            doc = YAML.readTree(in);
        }
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void everyDocumentedOperationIsRouted() throws Exception {
        List<Operation> operations = operations();
        assertThat(operations).hasSizeGreaterThan(20);
        for (Operation op : operations) {
            ServingFixture.Reply r =
                    f.call(
                            op.method().toUpperCase(),
                            op.concretePath(),
                            key,
                            op.body() == null ? null : "{}");
            String what = op.method().toUpperCase() + " " + op.path() + ": " + r.raw();
            assertThat(r.status()).as(what).isNotIn(405, 500);
            if (r.status() == 404) {
                assertThat(r.json().getString("detail")).as(what).doesNotStartWith("no route");
            }
        }
        ServingFixture.Reply missing = f.call("GET", "/v1/not-documented", key, null);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().getString("detail")).startsWith("no route");
    }

    @Test
    void requestBodiesAcceptExactlyTheDocumentedFields() throws Exception {
        int bodies = 0;
        for (Operation op : operations()) {
            if (op.body() == null) {
                continue;
            }
            bodies++;
            Map<String, JsonNode> properties = properties(op.body());
            String what = op.method().toUpperCase() + " " + op.path();
            assertThat(closed(op.body())).as(what + " documents a closed set of fields").isTrue();
            ObjectNode base = required(op.body());
            checkFields(op, fields -> base.deepCopy().setAll(fields), "", properties);
            // One level down: the objects a body holds, alone or in an array.
            for (Map.Entry<String, JsonNode> p : properties.entrySet()) {
                JsonNode schema = resolve(p.getValue());
                boolean array = "array".equals(schema.path("type").asText());
                JsonNode inner = resolve(array ? schema.path("items") : schema);
                if (!closed(inner)) {
                    continue;
                }
                String field = p.getKey();
                Function<ObjectNode, ObjectNode> place =
                        fields -> {
                            ObjectNode body = base.deepCopy();
                            if (array) {
                                body.putArray(field).add(fields);
                            } else {
                                body.set(field, fields);
                            }
                            return body;
                        };
                checkFields(op, place, field + (array ? "[0]." : "."), properties(inner));
            }
        }
        assertThat(bodies).isGreaterThanOrEqualTo(7);
    }

    @Test
    void everyDocumentedLimitOfABodyIsEnforcedNamingTheField() throws Exception {
        assertThat(refusedForEveryBodyField(OpenApiContractIT::beyondLimits))
                .isGreaterThanOrEqualTo(20);
    }

    @Test
    void aBodyFieldOfTheWrongTypeIsRefusedNamingIt() throws Exception {
        assertThat(refusedForEveryBodyField(OpenApiContractIT::ofAnotherType))
                .isGreaterThanOrEqualTo(40);
    }

    /**
     * Sends, for each documented field of each request body, each of the values {@code bad} makes
     * of its schema (in a body otherwise valid) and checks each is refused with a 400 naming the
     * field. Returns how many were sent.
     */
    private static int refusedForEveryBodyField(Function<JsonNode, List<JsonNode>> bad)
            throws Exception {
        int sent = 0;
        for (Operation op : operations()) {
            if (op.body() == null) {
                continue;
            }
            ObjectNode base = required(op.body());
            for (Map.Entry<String, JsonNode> p : properties(op.body()).entrySet()) {
                String name = p.getKey();
                for (JsonNode value : bad.apply(resolve(p.getValue()))) {
                    sent++;
                    ObjectNode body = base.deepCopy();
                    body.set(name, value);
                    ServingFixture.Reply r = send(op, body);
                    String what = op.method().toUpperCase() + " " + op.path() + " " + body;
                    assertThat(r.status()).as(what + ": " + r.raw()).isEqualTo(400);
                    assertThat(r.json().getString("detail")).as(what).startsWith(name + ":");
                }
            }
        }
        return sent;
    }

    /** Values just beyond each documented limit of a field. */
    private static List<JsonNode> beyondLimits(JsonNode schema) {
        List<JsonNode> beyond = new ArrayList<>();
        if (schema.has("maxLength")) {
            beyond.add(NODES.textNode("x".repeat(schema.get("maxLength").asInt() + 1)));
        }
        if (schema.has("maximum")) {
            beyond.add(NODES.numberNode(schema.get("maximum").asDouble() + 1));
        }
        if (schema.has("minimum")) {
            beyond.add(NODES.numberNode(schema.get("minimum").asDouble() - 1));
        }
        if (schema.has("maxItems")) {
            ArrayNode items = NODES.arrayNode();
            boolean objects = "object".equals(resolve(schema.path("items")).path("type").asText());
            for (int i = 0; i <= schema.get("maxItems").asInt(); i++) {
                items.add(objects ? NODES.objectNode() : NODES.textNode("t" + i));
            }
            beyond.add(items);
        }
        if (schema.has("maxProperties")) {
            ObjectNode props = NODES.objectNode();
            for (int i = 0; i <= schema.get("maxProperties").asInt(); i++) {
                props.put("k" + i, "v");
            }
            beyond.add(props);
        }
        return beyond;
    }

    /** A value of another JSON type than the field's. */
    private static List<JsonNode> ofAnotherType(JsonNode schema) {
        JsonNode type = schema.path("type");
        return switch (type.isArray() ? type.get(0).asText() : type.asText()) {
            case "string" -> List.of(NODES.numberNode(12345));
            case "integer", "number", "array", "object" -> List.of(NODES.textNode("text"));
            case "boolean" -> List.of(NODES.textNode("yes"));
            default -> List.of();
        };
    }

    @Test
    void everyDocumentedLimitOfAQueryParameterIsEnforcedNamingIt() throws Exception {
        int limits = 0;
        for (Operation op : operations()) {
            for (JsonNode param : op.parameters()) {
                JsonNode p = resolve(param);
                if (!"query".equals(p.path("in").asText())) {
                    continue;
                }
                String name = p.path("name").asText();
                JsonNode schema = resolve(p.path("schema"));
                List<String> beyond = new ArrayList<>();
                if (schema.has("enum")) {
                    beyond.add("not-a-choice");
                }
                if (schema.has("maximum")) {
                    beyond.add(String.valueOf(schema.get("maximum").asLong() + 1));
                }
                if (schema.has("minimum")) {
                    beyond.add(String.valueOf(schema.get("minimum").asLong() - 1));
                }
                if (schema.has("pattern")) {
                    beyond.add("%20starts-with-a-space");
                }
                for (String value : beyond) {
                    limits++;
                    String query =
                            name
                                    + "="
                                    + value
                                    + (op.byUser() && !name.equals("user_id")
                                            ? "&user_id=contract-user"
                                            : "");
                    String base = op.withIds();
                    ServingFixture.Reply r =
                            f.call(op.method().toUpperCase(), base + "?" + query, key, null);
                    String what = op.method().toUpperCase() + " " + base + "?" + query;
                    assertThat(r.status()).as(what + ": " + r.raw()).isEqualTo(400);
                    assertThat(r.json().getString("detail")).as(what).startsWith(name + ":");
                }
            }
        }
        assertThat(limits).isGreaterThanOrEqualTo(8);
    }

    /**
     * An undocumented field is refused by name and each documented one is known, in the object
     * {@code place} puts into a body; {@code at} is where that object is ("" for the body itself).
     */
    private static void checkFields(
            Operation op,
            Function<ObjectNode, ObjectNode> place,
            String at,
            Map<String, JsonNode> properties)
            throws Exception {
        assertUnknown(
                op,
                place.apply(NODES.objectNode().put("not_documented", 1)),
                at + "not_documented");
        for (String name : properties.keySet()) {
            assertKnown(op, place.apply(NODES.objectNode().putNull(name)), at + name);
        }
    }

    private static void assertUnknown(Operation op, ObjectNode body, String field)
            throws Exception {
        ServingFixture.Reply r = send(op, body);
        assertThat(r.status()).as(op.path() + " " + body + ": " + r.raw()).isEqualTo(400);
        assertThat(r.json().getString("detail"))
                .as(op.path() + " " + body)
                .startsWith(field + ": unknown");
    }

    private static void assertKnown(Operation op, ObjectNode body, String field) throws Exception {
        ServingFixture.Reply r = send(op, body);
        assertThat(r.status()).as(op.path() + " " + body + ": " + r.raw()).isNotEqualTo(500);
        if (r.json() != null && r.json().getString("detail") != null) {
            assertThat(r.json().getString("detail"))
                    .as(op.path() + " " + body + ": documented, so not unknown")
                    .doesNotStartWith(field + ": unknown");
        }
    }

    private static ServingFixture.Reply send(Operation op, ObjectNode body) throws Exception {
        return f.call(op.method().toUpperCase(), op.concretePath(), key, body.toString());
    }

    private static List<Operation> operations() {
        List<Operation> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields();
                paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode op = path.getValue().path(method);
                if (op.isMissingNode()) {
                    continue;
                }
                List<JsonNode> parameters = new ArrayList<>();
                path.getValue().path("parameters").forEach(parameters::add);
                op.path("parameters").forEach(parameters::add);
                JsonNode body =
                        op.path("requestBody")
                                .path("content")
                                .path("application/json")
                                .path("schema");
                out.add(
                        new Operation(
                                method,
                                path.getKey(),
                                parameters,
                                body.isMissingNode() ? null : body));
            }
        }
        return out;
    }

    private static JsonNode resolve(JsonNode node) {
        JsonNode ref = node.path("$ref");
        return ref.isTextual() ? doc.at(ref.asText().substring(1)) : node;
    }

    /** The properties of a schema, through its reference and the parts of an allOf. */
    private static Map<String, JsonNode> properties(JsonNode schema) {
        JsonNode s = resolve(schema);
        Map<String, JsonNode> out = new LinkedHashMap<>();
        s.path("allOf").forEach(part -> out.putAll(properties(part)));
        s.path("properties").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    private static boolean closed(JsonNode schema) {
        JsonNode s = resolve(schema);
        boolean closed =
                s.path("additionalProperties").isBoolean()
                        && !s.path("additionalProperties").asBoolean();
        for (JsonNode part : s.path("allOf")) {
            closed |= closed(part);
        }
        return closed && !properties(s).isEmpty();
    }

    /**
     * A body with the required fields set to valid values (a string, a documented choice, an array
     * holding one), to get past their checks.
     */
    private static ObjectNode required(JsonNode schema) {
        JsonNode s = resolve(schema);
        ObjectNode out = NODES.objectNode();
        s.path("allOf").forEach(part -> out.setAll(required(part)));
        Map<String, JsonNode> properties = properties(s);
        for (JsonNode name : s.path("required")) {
            JsonNode property = resolve(properties.get(name.asText()));
            JsonNode items = resolve(property.path("items"));
            switch (property.path("type").asText()) {
                case "array" -> {
                    ArrayNode a = out.putArray(name.asText());
                    if (items.has("enum")) {
                        a.add(items.get("enum").get(0));
                    }
                }
                case "integer" -> out.put(name.asText(), 30);
                default ->
                        out.set(
                                name.asText(),
                                property.has("enum")
                                        ? property.get("enum").get(0)
                                        : NODES.textNode("contract-1"));
            }
        }
        return out;
    }
}
