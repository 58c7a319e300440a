package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.mapping.TypeMapping;

class MemoryIndexTest {

    /** The index's own mapping, changed as its JSON. */
    static TypeMapping edit(java.util.function.Consumer<ObjectNode> change) {
        return TypedJson.edited(MemoryIndex.mapping(), TypeMapping._DESERIALIZER, change);
    }

    static ObjectNode method(ObjectNode mapping) {
        return (ObjectNode) mapping.path("properties").path("vec").path("method");
    }

    @Test
    void ownMappingIsValid() {
        assertThatCode(() -> MemoryIndex.validate(MemoryIndex.mapping()))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsAVectorFieldWithoutTheLuceneEngine() {
        TypeMapping faiss = edit(m -> method(m).put("engine", "faiss"));
        assertThatThrownBy(() -> MemoryIndex.validate(faiss))
                .hasMessageContaining("must use engine 'lucene'")
                .hasMessageContaining("faiss");
        TypeMapping noEngine = edit(m -> method(m).remove("engine"));
        assertThatThrownBy(() -> MemoryIndex.validate(noEngine))
                .hasMessageContaining("default (faiss)");
    }

    @Test
    void rejectsWrongDimensionAndTextScopeFields() {
        TypeMapping mapping =
                edit(m -> ((ObjectNode) m.path("properties").path("vec")).put("dimension", 768));
        assertThatThrownBy(() -> MemoryIndex.validate(mapping))
                .hasMessageContaining("dimension 384");

        TypeMapping other =
                edit(m -> ((ObjectNode) m.path("properties").path("user_id")).put("type", "text"));
        assertThatThrownBy(() -> MemoryIndex.validate(other))
                .hasMessageContaining("'user_id' must be a keyword");
    }
}
