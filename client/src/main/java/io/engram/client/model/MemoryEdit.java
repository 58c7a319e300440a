package io.engram.client.model;

import java.util.List;
import java.util.Map;

/** A change to one memory ({@code PATCH /v1/memories/{id}}); a null field is left as it is. */
public record MemoryEdit(
        String content, List<String> tags, Double importance, Map<String, Object> metadata) {

    public static MemoryEdit content(String text) {
        return new MemoryEdit(text, null, null, null);
    }

    public static MemoryEdit tags(List<String> values) {
        return new MemoryEdit(null, values, null, null);
    }
}
