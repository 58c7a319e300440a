package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.BareCost.*;
import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;

import io.engram.auth.ApiKeys;
import io.engram.config.EngramConfig;
import io.engram.embedding.CachingEmbedder;
import io.engram.memory.Memory;
import io.engram.memory.MemoryChange;
import io.engram.memory.MemoryIds;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.store.MemoryStoreWriter;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;

/** The memories, users and API key a run is measured against. */
final class RecallLoadSeed {

    private RecallLoadSeed() {}

    static void seed(
            EngramConfig config,
            OpenSearchClient openSearch,
            CachingEmbedder embedder,
            List<String[]> lines,
            int memories,
            int users)
            throws Exception {
        MemoryStoreWriter writer = new MemoryStoreWriter(config.memoryIndexAlias());
        Instant base = Instant.parse("2026-01-01T00:00:00Z");
        try (Connection c =
                DriverManager.getConnection(
                        config.postgres().url(),
                        config.postgres().user(),
                        config.postgres().password())) {
            List<MemoryChange> batch = new ArrayList<>();
            for (int i = 0; i < memories; i++) {
                int user = i % users;
                String[] line = lines.get((i / users + user * 7) % lines.size());
                String content = line[0] + ": " + line[1];
                Scope scope = new Scope("bench", "default", "prod", "u" + user);
                float[] vector = embedder.embed(content);
                UUID id = MemoryIds.fromConversation(scope, List.of("t" + i), content);
                Instant at = base.plusSeconds(i * 60L);
                batch.add(
                        new MemoryChange.Created(
                                new Memory(
                                        id,
                                        scope,
                                        Optional.of("s" + i / 20),
                                        MemoryType.SEMANTIC,
                                        content,
                                        List.of(),
                                        "conversation",
                                        List.of("t" + i),
                                        0.5,
                                        Tier.HOT,
                                        MemoryStatus.ACTIVE,
                                        at,
                                        Optional.empty(),
                                        Optional.empty(),
                                        1,
                                        embedder.version(),
                                        vector,
                                        at),
                                "seed",
                                0));
                if (batch.size() == 1000) {
                    writer.writePostgres(c, batch);
                    writer.writeIndex(openSearch, batch);
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                writer.writePostgres(c, batch);
                writer.writeIndex(openSearch, batch);
            }
        }
        String alias = config.memoryIndexAlias();
        OpenSearchException.call(
                "refreshing " + alias, () -> openSearch.indices().refresh(r -> r.index(alias)));
        // One segment, one HNSW graph: merging 100k vectors takes minutes on two cores.
        OpenSearchClient merging =
                OpenSearchClients.forConfig(config.openSearch(), Duration.ofMinutes(15));
        OpenSearchException.call(
                "merging " + alias,
                () -> merging.indices().forcemerge(f -> f.index(alias).maxNumSegments(1L)));
    }

    static String apiKey(EngramConfig config) throws Exception {
        String key = ApiKeys.generate();
        try (Connection c =
                        DriverManager.getConnection(
                                config.postgres().url(),
                                config.postgres().user(),
                                config.postgres().password());
                PreparedStatement st =
                        c.prepareStatement(
                                "insert into api_keys (id, key_prefix, key_hash, tenant_id, project_id, environment, scopes, rate_limit_per_s)"
                                        + " values (?, ?, ?, 'bench', 'default', 'prod', array['read','write'], 100000)")) {
            st.setObject(1, UUID.randomUUID());
            st.setString(2, ApiKeys.displayPrefix(key));
            st.setString(3, ApiKeys.hash(key));
            st.executeUpdate();
        }
        return key;
    }

    static List<String> firstWords(String text, int n) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("\\s+")) {
            if (out.size() == n) {
                break;
            }
            out.add(w.replaceAll("[^A-Za-z0-9']", ""));
        }
        return out;
    }

    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
