package io.engram.store.opensearch;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class MemoryIndexTest {

    @Test
    void ownMappingIsValid() {
        assertThatCode(() -> MemoryIndex.validate(MemoryIndex.mapping()))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsAVectorFieldWithoutTheLuceneEngine() {
        ObjectNode mapping = MemoryIndex.mapping();
        ObjectNode method = (ObjectNode) mapping.path("properties").path("vec").path("method");
        method.put("engine", "faiss");
        assertThatThrownBy(() -> MemoryIndex.validate(mapping))
                .hasMessageContaining("must use engine 'lucene'")
                .hasMessageContaining("faiss");
        method.remove("engine");
        assertThatThrownBy(() -> MemoryIndex.validate(mapping))
                .hasMessageContaining("default (faiss)");
    }

    @Test
    void rejectsWrongDimensionAndTextScopeFields() {
        ObjectNode mapping = MemoryIndex.mapping();
        ((ObjectNode) mapping.path("properties").path("vec")).put("dimension", 768);
        assertThatThrownBy(() -> MemoryIndex.validate(mapping))
                .hasMessageContaining("dimension 384");

        ObjectNode other = MemoryIndex.mapping();
        ((ObjectNode) other.path("properties").path("user_id")).put("type", "text");
        assertThatThrownBy(() -> MemoryIndex.validate(other))
                .hasMessageContaining("'user_id' must be a keyword");
    }
}
