package io.engram.jobs.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.OpenSearchClient;
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

/**
 * Removes from an index the documents whose memory PostgreSQL no longer holds as current (active or
 * superseded): what a reindex copied before the write plane forgot, deleted or archived it.
 */
final class StaleDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();
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
        ObjectNode first = JSON.createObjectNode().put("size", PAGE).put("_source", false);
        first.putArray("sort").add("_doc");
        JsonNode page = openSearch.send("POST", "/" + index + "/_search?scroll=1m", first).body();
        String scrollId = page.path("_scroll_id").asText();
        try {
            JsonNode hits = page.path("hits").path("hits");
            while (hits.size() > 0) {
                Map<String, String> routing = new LinkedHashMap<>();
                hits.forEach(h -> routing.put(h.path("_id").asText(), h.path("_routing").asText()));
                Set<String> current = current(c, routing.keySet());
                routing.forEach(
                        (id, r) -> {
                            if (!current.contains(id)) {
                                suspects.put(id, r);
                            }
                        });
                ObjectNode next = JSON.createObjectNode().put("scroll", "1m");
                next.put("scroll_id", scrollId);
                page = openSearch.send("POST", "/_search/scroll", next).body();
                scrollId = page.path("_scroll_id").asText(scrollId);
                hits = page.path("hits").path("hits");
            }
        } finally {
            ObjectNode clear = JSON.createObjectNode();
            clear.putArray("scroll_id").add(scrollId);
            openSearch.send("DELETE", "/_search/scroll", clear);
        }
        if (suspects.isEmpty()) {
            return 0;
        }
        Thread.sleep(grace.toMillis());
        Set<String> nowCurrent = current(c, suspects.keySet());
        List<JsonNode> lines = new ArrayList<>();
        suspects.forEach(
                (id, r) -> {
                    if (!nowCurrent.contains(id)) {
                        lines.addAll(MemoryDocuments.deleteLines(index, id, r));
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
