package io.engram.benchmarks.recall;

import io.engram.memory.Memory;
import io.engram.memory.MemoryStatus;
import io.engram.memory.MemoryType;
import io.engram.memory.Scope;
import io.engram.memory.Tier;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryDocuments;
import io.engram.store.opensearch.MemoryIndex;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchException;
import io.engram.text.Text;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.MsearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.msearch.MultisearchBody;
import org.opensearch.client.opensearch.core.msearch.MultisearchHeader;
import org.opensearch.client.opensearch.core.msearch.RequestItem;

/**
 * What {@link TransportBenchmark} searches and sends: documents of many users (corpus lines, random
 * unit vectors), and the recall's multi-search for one of them, drawn at random.
 */
final class TransportRequests {

    /** The k-NN leg's window, as a recall of ten asks. */
    static final int KNN_WINDOW = 50;

    /** The BM25 leg's hits, as a recall of ten asks. */
    static final int BM25_HITS = 30;

    private final String alias;
    private final List<String[]> lines;
    private final int users;
    private final SplittableRandom random;

    TransportRequests(String alias, List<String[]> lines, int users, long seed) {
        this.alias = alias;
        this.lines = lines;
        this.users = users;
        this.random = new SplittableRandom(seed);
    }

    /** A k-NN leg and a BM25 leg, ids and scores only, for a random user and question. */
    CompletableFuture<MsearchResponse<Void>> send(OpenSearchAsyncClient client) {
        String question =
                "What did they say about " + lines.get(random.nextInt(lines.size()))[1] + "?";
        MemoryQuery q = MemoryQuery.forScope(scope(random.nextInt(users)));
        MultisearchHeader header = MultisearchHeader.of(h -> h.index(alias).routing(q.routing()));
        MultisearchBody knn =
                MemoryQuery.idsOnly(q.knn(vector(random.nextLong()), KNN_WINDOW), KNN_WINDOW);
        MultisearchBody bm25 =
                MemoryQuery.idsOnly(q.bm25(Text.keywords(question)), BM25_HITS, "tags");
        List<RequestItem> searches =
                List.of(
                        RequestItem.of(r -> r.header(header).body(knn)),
                        RequestItem.of(r -> r.header(header).body(bm25)));
        try {
            return client.msearch(m -> m.searches(searches), Void.class);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    static Scope scope(int user) {
        return new Scope("tenant-" + (user % 10), "default", "production", "user-" + user);
    }

    /** Documents of {@code users} users: corpus lines as contents, random unit vectors. */
    static void seed(
            OpenSearchClient openSearch,
            String alias,
            List<String[]> lines,
            int documents,
            int users) {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        List<BulkOperation> batch = new ArrayList<>();
        for (int n = 0; n < documents; n++) {
            Memory m =
                    new Memory(
                            UUID.nameUUIDFromBytes(("doc-" + n).getBytes()),
                            scope(n % users),
                            Optional.empty(),
                            MemoryType.SEMANTIC,
                            String.join(": ", lines.get(n % lines.size())),
                            List.of(),
                            "conversation",
                            List.of(),
                            0.5,
                            Tier.HOT,
                            MemoryStatus.ACTIVE,
                            at,
                            Optional.empty(),
                            Optional.empty(),
                            1,
                            "minilm-l6-v2-int8",
                            vector(n),
                            at);
            batch.add(MemoryDocuments.index(alias, m));
            if (batch.size() == 2000 || n == documents - 1) {
                Bulk.send(openSearch, batch, "false");
                batch = new ArrayList<>();
            }
        }
        OpenSearchException.call(
                "refreshing " + alias, () -> openSearch.indices().refresh(r -> r.index(alias)));
    }

    static float[] vector(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[MemoryIndex.DIMENSION];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
            norm += v[i] * v[i];
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
        }
        return v;
    }
}
