package io.engram.store.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.store.opensearch.wire.OpenSearchWire;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.opensearch.client.json.JsonpDeserializer;

/** The JSON of the typed client's objects, as they go on the wire, and back. */
public final class TypedJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TypedJson() {}

    /** The JSON a typed request object (a query, a mapping) is sent as. */
    public static JsonNode of(Object typed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonGenerator generator = OpenSearchWire.MAPPER.jsonProvider().createGenerator(out);
        OpenSearchWire.MAPPER.serialize(typed, generator);
        generator.close();
        try {
            return JSON.readTree(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A typed object read from JSON. */
    public static <T> T parse(JsonNode json, JsonpDeserializer<T> deserializer) {
        byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
        try (JsonParser parser =
                OpenSearchWire.MAPPER
                        .jsonProvider()
                        .createParser(new ByteArrayInputStream(bytes))) {
            return deserializer.deserialize(parser, OpenSearchWire.MAPPER);
        }
    }

    /** A copy of {@code typed}, its JSON changed by {@code edit}. */
    public static <T> T edited(
            T typed, JsonpDeserializer<T> deserializer, Consumer<ObjectNode> edit) {
        ObjectNode json = (ObjectNode) of(typed);
        edit.accept(json);
        return parse(json, deserializer);
    }
}
