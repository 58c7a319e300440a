package io.engram.benchmarks.recall;

import static io.engram.benchmarks.recall.LoadPhases.*;
import static io.engram.benchmarks.recall.LoadRequests.*;
import static io.engram.benchmarks.recall.MachineSamples.*;
import static io.engram.benchmarks.recall.RecallLoadBenchmark.*;
import static io.engram.benchmarks.recall.RecallLoadReport.*;
import static io.engram.benchmarks.recall.RecallLoadSeed.*;

import io.engram.config.EngramConfig;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.memory.Scope;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.msearch.MultisearchBody;

/**
 * The bare cost recall is compared with: one query embedding plus one filtered k-NN search, timed
 * in-process.
 */
final class BareCost {

    private BareCost() {}

    /** Bare cost samples, each list sorted: embedding + k-NN, and the embedding alone. */
    record Bare(List<Long> total, List<Long> embedding) {}

    /**
     * The {@code n}th question about a corpus line: unique, so that no cache answers it, and of a
     * chat question's length.
     */
    static String question(String text, int n) {
        return "What did they say about " + String.join(" ", firstWords(text, 6)) + " (" + n + ")?";
    }

    /** One bare query embedding + filtered k-NN search at a time, each timed. */
    static final class BareLoop implements AutoCloseable {
        private final EngramConfig config;
        private final OpenSearchClient idsAndScores;
        private final List<String[]> lines;
        private final int users;
        private final Random random;
        private final OnnxEmbedder model;
        private final List<Long> total = new ArrayList<>();
        private final List<Long> embedding = new ArrayList<>();
        private int done;

        BareLoop(
                EngramConfig config,
                OpenSearchClient openSearch,
                List<String[]> lines,
                int users,
                Random random) {
            this.config = config;
            this.idsAndScores = openSearch.withTransportOptions(MemoryQuery.IDS_AND_SCORES_ONLY);
            this.lines = lines;
            this.users = users;
            this.random = random;
            this.model =
                    OnnxEmbedder.load(
                            ModelSpec.forVersion(config.embedding().version()),
                            config.embedding().modelPath(config.home()),
                            1);
        }

        void once() {
            String query = question(lines.get(random.nextInt(lines.size()))[1], done++);
            Scope scope = new Scope("bench", "default", "prod", "u" + random.nextInt(users));
            long t0 = System.nanoTime();
            float[] v = model.embed(query);
            embedding.add((System.nanoTime() - t0) / 1000);
            MemoryQuery q = MemoryQuery.forScope(scope);
            // The k-NN search recall sends, ids and scores only, as one search of its own.
            MultisearchBody body = MemoryQuery.idsOnly(q.knn(v, 21), 21);
            OpenSearchException.call(
                    "the bare k-NN search",
                    () ->
                            idsAndScores.msearch(
                                    m ->
                                            m.searches(
                                                    s ->
                                                            s.header(
                                                                            h ->
                                                                                    h.index(
                                                                                                    config
                                                                                                            .memoryIndexAlias())
                                                                                            .routing(
                                                                                                    q
                                                                                                            .routing()))
                                                                    .body(body)),
                                    Void.class));
            total.add((System.nanoTime() - t0) / 1000);
        }

        /** Forgets what was timed so far (a lead-in). */
        void clear() {
            total.clear();
            embedding.clear();
        }

        /** What was timed, without its first tenth (which warms the model and the connection). */
        Bare result() {
            int n = total.size();
            return new Bare(
                    total.subList(n / 10, n).stream().sorted().toList(),
                    embedding.subList(n / 10, n).stream().sorted().toList());
        }

        @Override
        public void close() {
            model.close();
        }
    }

    static Bare bareCost(
            EngramConfig config,
            OpenSearchClient openSearch,
            List<String[]> lines,
            int users,
            int n,
            int pauseMs,
            Random random)
            throws Exception {
        try (BareLoop loop = new BareLoop(config, openSearch, lines, users, random)) {
            for (int i = 0; i < n; i++) {
                if (pauseMs > 0) {
                    Thread.sleep(pauseMs);
                }
                loop.once();
            }
            return loop.result();
        }
    }
}
