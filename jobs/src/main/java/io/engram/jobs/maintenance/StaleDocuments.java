package io.engram.jobs.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.OpenSearchException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.search.Hit;

/**
 * Removes from an index the documents whose memory PostgreSQL no longer holds as current (active or
 * superseded): what a reindex copied before the write plane forgot, deleted or archived it.
 */
final class StaleDocuments {

    private static final String SCROLL = "1m";
    private static final int PAGE = 1000;

    private StaleDocuments() {}

    /**
     * Scrolls every document of {@code index}; those without a current row are removed if they
     * still have none after {@code grace} (a row being written is indexed before its transaction
     * commits). Returns how many were removed.
     */
    static long remove(OpenSearchClient openSearch, String index, Connection c, Duration grace)
            throws SQLException, InterruptedException {
        Map<String, String> suspects = new LinkedHashMap<>(); // id -> routing
        SearchResponse<JsonNode> page =
                OpenSearchException.call(
                        "scrolling " + index,
                        () ->
                                openSearch.search(
                                        s ->
                                                s.index(index)
                                                        .size(PAGE)
                                                        .source(src -> src.fetch(false))
                                                        .sort(
                                                                o ->
                                                                        o.doc(
                                                                                d ->
                                                                                        d.order(
                                                                                                SortOrder
                                                                                                        .Asc)))
                                                        .scroll(t -> t.time(SCROLL)),
                                        JsonNode.class));
        String scrollId = page.scrollId();
        try {
            List<Hit<JsonNode>> hits = page.hits().hits();
            while (!hits.isEmpty()) {
                Map<String, String> routing = new LinkedHashMap<>();
                hits.forEach(h -> routing.put(h.id(), h.routing()));
                Set<String> current = current(c, routing.keySet());
                routing.forEach(
                        (id, r) -> {
                            if (!current.contains(id)) {
                                suspects.put(id, r);
                            }
                        });
                String previous = scrollId;
                page =
                        OpenSearchException.call(
                                "scrolling " + index,
                                () ->
                                        openSearch.scroll(
                                                s ->
                                                        s.scrollId(previous)
                                                                .scroll(t -> t.time(SCROLL)),
                                                JsonNode.class));
                scrollId = page.scrollId() == null ? scrollId : page.scrollId();
                hits = page.hits().hits();
            }
        } finally {
            String last = scrollId;
            OpenSearchException.call(
                    "clearing the scroll of " + index,
                    () -> openSearch.clearScroll(s -> s.scrollId(last)));
        }
        if (suspects.isEmpty()) {
            return 0;
        }
        Thread.sleep(grace.toMillis());
        Set<String> nowCurrent = current(c, suspects.keySet());
        List<BulkOperation> lines = new ArrayList<>();
        suspects.forEach(
                (id, r) -> {
                    if (!nowCurrent.contains(id)) {
                        lines.add(MemoryDocuments.delete(index, id, r));
                    }
                });
        TaskContext.index(openSearch, lines, "false");
        return lines.size();
    }

    /** Which of {@code ids} have an active or superseded row. */
    static Set<String> current(Connection c, Set<String> ids) throws SQLException {
        UUID[] uuids = new UUID[ids.size()];
        int i = 0;
        for (String id : ids) {
            uuids[i++] = UUID.fromString(id);
        }
        Array array = c.createArrayOf("uuid", uuids);
        Set<String> out = new HashSet<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "select id from memories where id = any(?)"
                                + " and status in ('active', 'superseded')")) {
            st.setArray(1, array);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class).toString());
                }
            }
        }
        return out;
    }
}
