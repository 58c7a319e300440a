package io.engram.store;

import static io.engram.store.MemoryStatements.CURRENT;
import static io.engram.store.MemoryStatements.INSERT;
import static io.engram.store.MemoryStatements.REINFORCE;
import static io.engram.store.MemoryStatements.SUPERSEDE;
import static io.engram.store.MemoryStatements.SUPERSEDED_BY;
import static io.engram.store.MemoryStatements.UPDATE_CONTENT;
import static io.engram.store.MemoryStatements.bindEvent;
import static io.engram.store.MemoryStatements.bindInsert;
import static io.engram.store.MemoryStatements.create;
import static io.engram.store.MemoryStatements.detail;
import static io.engram.store.MemoryStatements.exists;
import static io.engram.store.MemoryStatements.textArray;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.Scope;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Applies decided changes to PostgreSQL (memories and memory_events, in one transaction), then to
 * the OpenSearch index (one bulk request), then bumps the cache generation of every scope touched.
 * Every statement is guarded by id and version, so a replayed batch changes nothing.
 */
public final class MemoryStoreWriter {

    private final String alias;
    private final boolean storeAgain;

    /** A writer of facts: a fact whose memory is no longer current is stored as a new memory. */
    public MemoryStoreWriter(String alias) {
        this(alias, true);
    }

    private MemoryStoreWriter(String alias, boolean storeAgain) {
        this.alias = alias;
        this.storeAgain = storeAgain;
    }

    /**
     * A writer of edits to given memories: an edit of a memory that is no longer current is
     * dropped, not stored as a new memory.
     */
    public static MemoryStoreWriter forEdits(String alias) {
        return new MemoryStoreWriter(alias, false);
    }

    /**
     * Writes the changes to PostgreSQL in one transaction; returns them as written (see {@link
     * #apply}), for the index.
     */
    public List<MemoryChange> writePostgres(Connection c, List<MemoryChange> changes)
            throws SQLException {
        return Transactions.in(
                c,
                tx -> {
                    UserLocks.lock(tx, scopes(changes));
                    return apply(tx, changes);
                });
    }

    /**
     * Changes decided from conversation turns, the newest of which was sent to the turns topic at
     * {@code sentAt} (epoch ms; -1 when unknown).
     */
    public record FromTurns(
            long sentAt, List<MemoryChange> changes, String sessionId, List<String> turnIds) {

        /** Changes of turns whose window is not known (never counted as seen). */
        public FromTurns(long sentAt, List<MemoryChange> changes) {
            this(sentAt, changes, null, List.of());
        }
    }

    /**
     * What {@link #writeFromTurns} did: changes written, changes of forgotten turns dropped, and
     * changes of turns already stored dropped (the same turns sent again).
     */
    public record Outcome(int written, int forgotten, int replayed) {}

    /**
     * Writes changes decided from turns like {@link #write}, except those of turns sent before the
     * last forget of their user: under the users' locks, the audit of forgets is read in the same
     * transaction, so a forget that committed first is always seen, and one that commits later
     * deletes what this wrote.
     */
    public Outcome writeFromTurns(
            Connection c,
            OpenSearchClient client,
            Consumer<Set<Scope>> invalidate,
            List<FromTurns> batches)
            throws SQLException {
        return writeFromTurns(c, client, invalidate, batches, "wait_for");
    }

    /**
     * As {@link #writeFromTurns(Connection, OpenSearchClient, Consumer, List)}, with the index
     * bulk's {@code refresh} (see {@link #indexConfirmed(Connection, OpenSearchClient, List,
     * String)}).
     */
    public Outcome writeFromTurns(
            Connection c,
            OpenSearchClient client,
            Consumer<Set<Scope>> invalidate,
            List<FromTurns> batches,
            String refresh)
            throws SQLException {
        List<MemoryChange> all = new ArrayList<>();
        batches.forEach(b -> all.addAll(b.changes()));
        if (all.isEmpty()) {
            return new Outcome(0, 0, 0);
        }
        int[] dropped = {0, 0};
        IndexOutbox.Entries[] pending = {null};
        List<MemoryChange> written =
                Transactions.in(
                        c,
                        tx -> {
                            Set<Scope> scopes = scopes(all);
                            UserLocks.lock(tx, scopes);
                            Map<Scope, Long> forgets = ForgetAudit.lastForgets(tx, scopes);
                            List<TurnRegistry.Window> windows = new ArrayList<>();
                            for (FromTurns b : batches) {
                                if (b.changes().isEmpty()) {
                                    continue;
                                }
                                Scope scope = b.changes().get(0).memory().scope();
                                long at = forgets.get(scope);
                                if (b.sentAt() >= 0 && at >= 0 && b.sentAt() <= at) {
                                    dropped[0] += b.changes().size();
                                } else {
                                    windows.add(new TurnRegistry.Window(scope, b));
                                }
                            }
                            List<MemoryChange> kept = new ArrayList<>(all.size());
                            List<List<MemoryChange>> fresh = TurnRegistry.unseen(tx, windows);
                            for (int i = 0; i < windows.size(); i++) {
                                dropped[1] +=
                                        windows.get(i).batch().changes().size()
                                                - fresh.get(i).size();
                                kept.addAll(fresh.get(i));
                            }
                            TurnRegistry.register(tx, windows);
                            List<MemoryChange> applied = apply(tx, kept);
                            pending[0] = IndexOutbox.enqueue(tx, applied);
                            return applied;
                        });
        indexConfirmed(c, client, written, refresh);
        IndexOutbox.done(c, pending[0]);
        invalidate.accept(scopes(all));
        return new Outcome(written.size(), dropped[0], dropped[1]);
    }

    /**
     * Writes again to the index the memories whose commit's own index write did not complete (see
     * {@link IndexOutbox}), pending for longer than {@code olderThan}, at most {@code limit}.
     */
    public IndexOutbox.Repair repairIndex(
            Connection c, OpenSearchClient client, java.time.Duration olderThan, int limit)
            throws SQLException {
        return IndexOutbox.repair(c, client, alias, olderThan, limit);
    }

    /**
     * Writes the documents of changes committed to PostgreSQL, then removes again those whose row
     * is gone by now: a forget or delete that ran between the commit and the index write has
     * already searched the index for them and could not see them.
     */
    public void indexConfirmed(Connection c, OpenSearchClient client, List<MemoryChange> written)
            throws SQLException {
        indexConfirmed(c, client, written, "wait_for");
    }

    /**
     * As {@link #indexConfirmed(Connection, OpenSearchClient, List)}, with the bulk's {@code
     * refresh}: {@code false} does not wait for the index to make the documents searchable (the
     * caller invalidates cached answers again once it has).
     */
    public void indexConfirmed(
            Connection c, OpenSearchClient client, List<MemoryChange> written, String refresh)
            throws SQLException {
        writeIndex(client, written, refresh);
        Map<UUID, Memory> documents = new LinkedHashMap<>();
        for (MemoryChange change : written) {
            documents.put(change.memory().id(), change.memory());
            change.replaced().ifPresent(old -> documents.put(old.id(), old));
        }
        if (documents.isEmpty()) {
            return;
        }
        // FOR KEY SHARE waits for a delete still in flight (a forget holds its transaction open
        // while it deletes the user's documents): its rows count as gone once it commits, never
        // as present because it has not yet.
        try (PreparedStatement st =
                c.prepareStatement("select id from memories where id = any(?) for key share")) {
            st.setArray(1, c.createArrayOf("uuid", documents.keySet().toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    documents.remove(rs.getObject(1, UUID.class));
                }
            }
        }
        List<BulkOperation> deletes = new ArrayList<>();
        documents
                .values()
                .forEach(
                        m ->
                                deletes.add(
                                        MemoryDocuments.delete(
                                                alias, m.id().toString(), m.scope().routing())));
        Bulk.send(client, deletes, "true");
    }

    /**
     * Writes the changes inside the caller's transaction (which commits or rolls back) and returns
     * them as written, for the index. A change was decided against the memories its writer knew;
     * when the memory it updates, reinforces or supersedes is no longer current (archived,
     * forgotten or superseded by another writer since), a writer of facts does not lose the fact
     * with it: it is stored as a new memory, unless an active memory of the user already says the
     * same words. A writer of edits drops the edit. The stale memory is never written back to the
     * index.
     */
    public List<MemoryChange> apply(Connection c, List<MemoryChange> changes) throws SQLException {
        List<MemoryChange> written = new ArrayList<>(changes.size());
        try (PreparedStatement insert = c.prepareStatement(INSERT);
                PreparedStatement update = c.prepareStatement(UPDATE_CONTENT);
                PreparedStatement supersede = c.prepareStatement(SUPERSEDE);
                PreparedStatement reinforce = c.prepareStatement(REINFORCE);
                PreparedStatement event = c.prepareStatement(MemoryEvents.INSERT)) {
            int batched = 0;
            for (MemoryChange change : changes) {
                Memory m = change.memory();
                if (change instanceof MemoryChange.Created) {
                    // New memories are sent in batches: nothing after them in this loop reads
                    // them before the batch is sent (every other kind of change sends it first).
                    bindInsert(c, insert, m);
                    insert.addBatch();
                    bindEvent(event, m, "create", m.version(), detail(change));
                    event.addBatch();
                    batched++;
                    written.add(change);
                    continue;
                }
                if (batched > 0) {
                    insert.executeBatch();
                    event.executeBatch();
                    batched = 0;
                }
                if (change instanceof MemoryChange.Contradicted x) {
                    // The truth only: no document changes, so nothing for the index.
                    StaleStatements.contradict(c, x);
                    continue;
                }
                if (change instanceof MemoryChange.Updated u) {
                    update.setString(1, m.content());
                    update.setString(2, MemoryIds.contentHash(m.content()));
                    update.setArray(3, textArray(c, m.tags()));
                    update.setArray(4, textArray(c, m.sourceTurnIds()));
                    update.setDouble(5, m.importance());
                    update.setTimestamp(6, Timestamp.from(m.validFrom()));
                    update.setInt(7, m.version());
                    update.setObject(8, m.id());
                    update.setInt(9, m.version());
                    if (update.executeUpdate() == 0 && !exists(c, CURRENT, m.id(), m.version())) {
                        storeAgain(c, insert, event, change).ifPresent(written::add);
                        continue;
                    }
                    ObjectNode d = detail(change);
                    d.put("previous_content", u.previousContent());
                    bindEvent(event, m, "update", m.version(), d);
                    event.executeUpdate();
                } else if (change instanceof MemoryChange.Superseded s) {
                    create(
                            c,
                            insert,
                            event,
                            m,
                            detail(change).put("supersedes", s.old().id().toString()));
                    Memory old = s.old();
                    supersede.setTimestamp(1, Timestamp.from(old.validTo().orElse(m.validFrom())));
                    supersede.setObject(2, m.id());
                    supersede.setInt(3, old.version());
                    supersede.setObject(4, old.id());
                    supersede.setInt(5, old.version());
                    if (supersede.executeUpdate() == 0
                            && !exists(c, SUPERSEDED_BY, old.id(), m.id())) {
                        // The new memory stands alone; the old one's stale copy stays out.
                        written.add(
                                new MemoryChange.Created(
                                        m,
                                        change.reason() + "; the memory it replaced is gone",
                                        change.similarity()));
                        continue;
                    }
                    bindEvent(
                            event,
                            old,
                            "supersede",
                            old.version(),
                            detail(change).put("superseded_by", m.id().toString()));
                    event.executeUpdate();
                    StaleStatements.mark(c, old, m);
                } else {
                    reinforce.setArray(1, textArray(c, m.sourceTurnIds()));
                    reinforce.setDouble(2, m.importance());
                    reinforce.setObject(3, m.id());
                    if (reinforce.executeUpdate() == 0) {
                        storeAgain(c, insert, event, change).ifPresent(written::add);
                        continue;
                    }
                }
                written.add(change);
            }
            if (batched > 0) {
                insert.executeBatch();
                event.executeBatch();
            }
        }
        return written;
    }

    /**
     * The fact of a change whose memory is no longer current, as a new memory (first version, hot,
     * active), or nothing when an active memory of the user already says the same words or this
     * writer writes edits. Its id comes from its scope, source turns and words, so a replay inserts
     * nothing twice.
     */
    private Optional<MemoryChange> storeAgain(
            Connection c, PreparedStatement insert, PreparedStatement event, MemoryChange change)
            throws SQLException {
        if (!storeAgain) {
            return Optional.empty();
        }
        return MemoryStatements.storeAsNew(c, insert, event, change);
    }

    /**
     * Writes the resulting documents to the index in one bulk request; stale versions are skipped.
     */
    public void writeIndex(OpenSearchClient client, List<MemoryChange> changes) {
        writeIndex(client, changes, "wait_for");
    }

    private void writeIndex(OpenSearchClient client, List<MemoryChange> changes, String refresh) {
        List<BulkOperation> lines = new ArrayList<>();
        for (MemoryChange change : changes) {
            lines.add(MemoryDocuments.index(alias, change.memory()));
            change.replaced().ifPresent(old -> lines.add(MemoryDocuments.index(alias, old)));
        }
        // wait_for: when this returns the documents are searchable, so the cache generation bump
        // that follows can never let a result computed without them be cached as current.
        Bulk.send(client, lines, refresh);
    }

    /** The scopes touched by the changes, for cache invalidation. */
    public static Set<Scope> scopes(List<MemoryChange> changes) {
        Set<Scope> out = new LinkedHashSet<>();
        changes.forEach(c -> out.add(c.memory().scope()));
        return out;
    }

    /** Applies the changes to both stores and then invalidates the caches of the scopes touched. */
    public void write(
            Connection c,
            OpenSearchClient client,
            Consumer<Set<Scope>> invalidate,
            List<MemoryChange> changes)
            throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        List<MemoryChange> written = writePostgres(c, changes);
        indexConfirmed(c, client, written);
        invalidate.accept(scopes(changes));
    }
}
