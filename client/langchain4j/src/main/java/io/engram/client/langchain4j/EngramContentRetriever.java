package io.engram.client.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import io.engram.client.EngramClient;
import io.engram.client.EngramException;
import io.engram.client.model.Memory;
import io.engram.client.model.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Recalls a user's memories for a LangChain4j query: the user is the query's chat memory id (an
 * {@code AiServices} method's {@code @MemoryId}), or whatever {@code userOf} makes of the query.
 * Each memory becomes one content, with its id, score and validity in the segment's metadata. When
 * Engram cannot answer, the model goes on without memories.
 */
public final class EngramContentRetriever implements ContentRetriever {

    private final EngramClient engram;
    private final Function<Query, String> userOf;
    private final int limit;

    public EngramContentRetriever(EngramClient engram, int limit) {
        this(engram, EngramContentRetriever::chatMemoryId, limit);
    }

    public EngramContentRetriever(EngramClient engram, Function<Query, String> userOf, int limit) {
        this.engram = engram;
        this.userOf = userOf;
        this.limit = limit;
    }

    /** The query's chat memory id, as text; null when it has none. */
    public static String chatMemoryId(Query query) {
        Object id = query.metadata() == null ? null : query.metadata().chatMemoryId();
        return id == null ? null : id.toString();
    }

    @Override
    public List<Content> retrieve(Query query) {
        String user = userOf.apply(query);
        if (user == null || query.text() == null || query.text().isBlank()) {
            return List.of();
        }
        List<Memory> memories;
        try {
            memories =
                    engram.search(SearchRequest.of(user, query.text()).withLimit(limit)).memories();
        } catch (EngramException e) {
            return List.of();
        }
        List<Content> out = new ArrayList<>(memories.size());
        for (Memory m : memories) {
            Metadata meta = new Metadata().put("engram_id", m.id());
            if (m.score() != null) {
                meta.put("score", m.score());
            }
            if (m.validFrom() != null) {
                meta.put("valid_from", m.validFrom().toString());
            }
            out.add(Content.from(TextSegment.from(m.content(), meta)));
        }
        return out;
    }
}
