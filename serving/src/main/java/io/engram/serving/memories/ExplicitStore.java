package io.engram.serving.memories;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.dedup.ChangePlanner;
import io.engram.dedup.UserMemories;
import io.engram.embedding.ModelSpec;
import io.engram.extraction.CandidateFact;
import io.engram.extraction.Excerpts;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.serving.auth.Principal;
import io.engram.serving.http.Fields;
import io.engram.serving.http.Problem;
import io.engram.serving.recall.EmbeddingWorker;
import io.engram.serving.store.OpenSearchReads;
import io.engram.store.MemoryEvents;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.Transactions;
import io.engram.store.UserLocks;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryQuery;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.opensearch.client.opensearch.core.search.Hit;

/**
 * {@code POST /v1/memories}: a memory stored by the client, decided against the user's nearest
 * memories as the write plane decides extracted facts (create, update, supersede or noop). Stores
 * of one user are serialised: the same words stored twice at once are one memory, the second store
 * answering noop.
 */
public final class ExplicitStore {

    /** A validated explicit store. */
    public record StoreRequest(
            Scope scope,
            String content,
            MemoryType type,
            List<String> tags,
            JsonObject metadata,
            double importance,
            String sessionId,
            Instant validFrom) {

        /** The fields a store body may have. */
        public static final java.util.Set<String> FIELDS =
                java.util.Set.of(
                        "user_id",
                        "project_id",
                        "content",
                        "type",
                        "tags",
                        "metadata",
                        "importance",
                        "session_id",
                        "valid_from");

        /** A store body checked field by field (400 naming the first one that is wrong). */
        public static StoreRequest parse(JsonObject body, Principal p) {
            Scope scope =
                    p.scopeFor(Fields.id(body, "user_id"), Fields.optionalId(body, "project_id"));
            String typeText = body.containsKey("type") ? Fields.text(body, "type", 20) : "semantic";
            MemoryType type;
            try {
                type = MemoryType.fromWire(typeText);
            } catch (IllegalArgumentException e) {
                throw Problem.badRequest("type: " + e.getMessage());
            }
            Instant validFrom = Fields.optionalTime(body, "valid_from");
            return new StoreRequest(
                    scope,
                    Fields.text(body, "content", 8000).strip(),
                    type,
                    storableTags(body),
                    Fields.json(body, "metadata", 50),
                    Fields.real(body, "importance", 0.5, 0, 1),
                    Fields.optionalId(body, "session_id"),
                    validFrom == null ? Instant.now() : validFrom);
        }
    }

    /**
     * The request's tags, none of those that mark what the write plane reads and never stores (a
     * hint is no memory: stored, it would be planned as one and never written).
     */
    static List<String> storableTags(JsonObject body) {
        List<String> tags = Fields.strings(body, "tags", 20, 100);
        for (int i = 0; i < tags.size(); i++) {
            String t = tags.get(i);
            if (t.equals(io.engram.extraction.statements.ValueHint.TAG)
                    || t.equals(io.engram.extraction.statements.ChangeMention.TAG)
                    || t.equals(io.engram.extraction.statements.NamedInstead.TAG)) {
                throw Problem.badRequest(
                        "tags["
                                + i
                                + "]: '"
                                + t
                                + "' is kept for sentences the write plane reads"
                                + " and never stores");
            }
        }
        return tags;
    }

    /** What the write did: the changes written, or the active memory that already said it. */
    private record Written(List<MemoryChange> changes, UUID sameWords) {}

    private static final String SAME_WORDS =
            "select id from memories where tenant_id = ? and project_id = ? and environment = ?"
                    + " and user_id = ? and content_hash = ? and status = 'active' limit 1";

    private final MemoryWrites writes;
    private final OpenSearchReads openSearch;
    private final EmbeddingWorker embedder;
    private final ChangePlanner planner;

    ExplicitStore(
            MemoryWrites writes,
            OpenSearchReads openSearch,
            EmbeddingWorker embedder,
            ChangePlanner planner) {
        this.writes = writes;
        this.openSearch = openSearch;
        this.embedder = embedder;
        this.planner = planner;
    }

    public Future<JsonObject> store(StoreRequest r) {
        // Embedded as the write plane embeds it: a memory tagged as an excerpt by its own turn when
        // the model's excerpt vectors pay, otherwise not at all (and decided against nothing).
        Optional<String> text =
                Excerpts.embeddedText(
                        r.tags(),
                        r.content(),
                        ModelSpec.scaleOf(embedder.version()).excerptVectors());
        if (text.isEmpty()) {
            return decide(r, List.of(new float[0])).compose(planned -> write(r, planned));
        }
        return embedder.embed(r.scope(), List.of(text.get()))
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "embedding model unavailable: nothing was stored")))
                .compose(vectors -> decide(r, vectors))
                .compose(planned -> write(r, planned));
    }

    private Future<ChangePlanner.Planned> decide(StoreRequest r, List<float[]> vectors) {
        CandidateFact fact =
                new CandidateFact(
                        r.type(), r.content(), r.importance(), r.tags(), List.of(), r.validFrom());
        Future<UserMemories> nearest =
                vectors.get(0).length == 0
                        ? Future.succeededFuture(UserMemories.of(List.of(), 100))
                        : nearest(r.scope(), r.type(), vectors.get(0));
        return nearest.map(
                known ->
                        planner.plan(
                                        r.scope(),
                                        Optional.ofNullable(r.sessionId()),
                                        "api",
                                        List.of(fact),
                                        vectors,
                                        known,
                                        Instant.now())
                                .get(0));
    }

    private Future<JsonObject> write(StoreRequest r, ChangePlanner.Planned planned) {
        MemoryStoreWriter writer = new MemoryStoreWriter(writes.alias());
        return writes.blocking(
                        "nothing was stored",
                        c -> {
                            Written w =
                                    Transactions.in(c, tx -> writeLocked(tx, writer, r, planned));
                            writer.indexConfirmed(c, writes.index(), w.changes());
                            return w;
                        })
                .compose(w -> writes.bump(List.of(r.scope())).map(v -> answer(planned, w)));
    }

    /**
     * Under the user's lock: nothing when an active memory already says the same words (a store
     * racing its own retry), else the planned change and the metadata, in one transaction.
     */
    private static Written writeLocked(
            Connection tx, MemoryStoreWriter writer, StoreRequest r, ChangePlanner.Planned planned)
            throws SQLException {
        UserLocks.lock(tx, List.of(r.scope()));
        if (planned.change() instanceof MemoryChange.Created) {
            UUID same = sameWords(tx, r.scope(), r.content());
            if (same != null) {
                return new Written(List.of(), same);
            }
        }
        List<MemoryChange> written = writer.apply(tx, List.of(planned.change()));
        if (r.metadata() != null && !written.isEmpty()) {
            try (PreparedStatement st =
                    tx.prepareStatement(
                            "update memories set metadata = ?::jsonb where id = ? and tenant_id = ?"
                                    + " and project_id = ? and environment = ? and user_id = ?")) {
                st.setString(1, r.metadata().encode());
                st.setObject(2, written.get(0).memory().id());
                MemoryEvents.bindScope(st, 3, r.scope());
                st.executeUpdate();
            }
        }
        return new Written(written, null);
    }

    private static UUID sameWords(Connection tx, Scope scope, String content) throws SQLException {
        try (PreparedStatement st = tx.prepareStatement(SAME_WORDS)) {
            MemoryEvents.bindScope(st, 1, scope);
            st.setString(5, MemoryIds.contentHash(content));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getObject(1, UUID.class) : null;
            }
        }
    }

    /**
     * The answer, from what was written: the planned change, or the new memory that replaced it
     * when the memory it matched stopped being current meanwhile, or the memory that already said
     * the same words (noop).
     */
    private static JsonObject answer(ChangePlanner.Planned planned, Written w) {
        double similarity = Math.round(planned.decision().similarity() * 1000) / 1000.0;
        if (w.sameWords() != null || w.changes().isEmpty()) {
            UUID id = w.sameWords() != null ? w.sameWords() : planned.change().memory().id();
            return new JsonObject()
                    .put("id", id.toString())
                    .put("decision", "noop")
                    .put("reason", "an active memory already says the same words")
                    .put("similarity", w.sameWords() != null ? 1.0 : similarity)
                    .put("superseded", null);
        }
        MemoryChange done = w.changes().get(0);
        boolean asPlanned = done == planned.change();
        return new JsonObject()
                .put("id", done.memory().id().toString())
                .put("decision", asPlanned ? planned.decision().kind() : "create")
                .put("reason", asPlanned ? planned.decision().reason() : done.reason())
                .put("similarity", similarity)
                .put("superseded", done.replaced().map(m -> m.id().toString()).orElse(null));
    }

    /** The user's nearest current memories of one type, with vectors, from the index. */
    private Future<UserMemories> nearest(Scope scope, MemoryType type, float[] vector) {
        MemoryQuery q =
                MemoryQuery.forScope(scope)
                        .types(List.of(type.wireName()))
                        .excludeTags(List.of(Excerpts.TAG));
        return openSearch
                .call(
                        c ->
                                c.search(
                                        s ->
                                                s.index(writes.alias())
                                                        .routing(q.routing())
                                                        .query(q.knn(vector, 5))
                                                        .size(5),
                                        JsonNode.class))
                .recover(
                        err ->
                                Future.failedFuture(
                                        Problem.unavailable(
                                                "search index unavailable: nothing was stored")))
                .map(
                        resp -> {
                            List<Memory> memories = new ArrayList<>();
                            for (Hit<JsonNode> hit : resp.hits().hits()) {
                                memories.add(MemoryDocuments.fromSource(hit.source()));
                            }
                            return UserMemories.of(memories, 100);
                        });
    }
}
