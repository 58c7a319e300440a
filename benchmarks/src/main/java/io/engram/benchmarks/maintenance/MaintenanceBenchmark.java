package io.engram.benchmarks.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.benchmarks.ingest.IngestionBenchmark;
import io.engram.benchmarks.support.BenchmarkStores;
import io.engram.config.EngramConfig;
import io.engram.jobs.maintenance.MaintenanceKind;
import io.engram.jobs.maintenance.MaintenanceReport;
import io.engram.jobs.maintenance.MaintenanceRunner;
import io.engram.jobs.maintenance.MaintenanceSettings;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.MaintenanceScheduler;
import io.engram.services.LocalServices;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.MemoryIndex;
import io.engram.store.opensearch.OpenSearchClients;
import io.engram.store.opensearch.OpenSearchException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;

/**
 * Maintenance throughput: seeds N memories over U users (PostgreSQL rows with a year of access
 * history, index documents with synthetic vectors where one memory in ten has a near-duplicate),
 * then runs decay+tiers and consolidation as Flink batch jobs on a mini cluster, each twice (the
 * second run must change nothing), and writes the figures to a Markdown file.
 */
public final class MaintenanceBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AS_OF = Instant.parse("2026-11-01T03:00:00Z");
    private static final int DIM = MemoryIndex.DIMENSION;

    private MaintenanceBenchmark() {}

    public static void main(String[] args) throws Exception {
        int memories = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path out = Path.of(args.length > 2 ? args[2] : "benchmarks/results/maintenance.md");
        Path home = Files.createTempDirectory("engram-maintenance-bench-");
        try (LocalServices services = BenchmarkStores.start(home, "2g", "256m")) {
            EngramConfig config =
                    BenchmarkStores.prepare(
                            home, services, Map.of("ENGRAM_EMBEDDING_INTRA_OP_THREADS", "1"));
            OpenSearchClient openSearch =
                    OpenSearchClients.forConfig(config.openSearch(), Duration.ofSeconds(300));

            long t0 = System.nanoTime();
            seedPostgres(config, memories, users);
            double pgSeconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("seeded %,d rows in %.1f s%n", memories, pgSeconds);
            t0 = System.nanoTime();
            seedIndex(config, openSearch, users);
            double osSeconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("indexed %,d documents in %.1f s%n", memories, osSeconds);

            List<MaintenanceReport> reports = new ArrayList<>();
            try (LocalFlinkCluster flink = LocalFlinkCluster.start(home.resolve("flink"), 4)) {
                MaintenanceRunner runner =
                        new MaintenanceRunner(
                                MaintenanceSettings.from(config),
                                MaintenanceScheduler.onCluster(flink));
                for (MaintenanceKind job :
                        List.of(MaintenanceKind.DECAY, MaintenanceKind.CONSOLIDATE)) {
                    for (int run = 0; run < 2; run++) {
                        MaintenanceReport r = runner.run(job, null, AS_OF, "benchmark");
                        System.out.printf(
                                "%s run %d: %,d scanned in %.1f s = %,.0f memories/s, changed %s%n",
                                job.wireName(),
                                run + 1,
                                r.scanned(),
                                r.took().toMillis() / 1000.0,
                                r.scannedPerSecond(),
                                r.changed());
                        reports.add(r);
                    }
                }
            }
            String report = report(memories, users, pgSeconds, osSeconds, reports);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report);
            System.out.println(report);
        } finally {
            BenchmarkStores.deleteTree(home);
        }
    }

    /** A year of history: last recall spread over 365 days, tiers and decay as of yesterday. */
    private static void seedPostgres(EngramConfig c, int memories, int users) throws Exception {
        try (Connection conn =
                DriverManager.getConnection(
                        c.postgres().url(), c.postgres().user(), c.postgres().password())) {
            conn.createStatement().execute("alter table memories set (autovacuum_enabled = off)");
            // Conversation lines as contents, so folded texts differ like real ones do.
            conn.createStatement()
                    .execute(
                            "create temporary table corpus (n int primary key, line text not null)");
            List<String[]> lines =
                    IngestionBenchmark.corpusLines(
                            Path.of("../shared/bench/locomo/locomo_dev.jsonl"));
            try (PreparedStatement ins =
                    conn.prepareStatement("insert into corpus (n, line) values (?, ?)")) {
                for (int n = 0; n < lines.size(); n++) {
                    ins.setInt(1, n);
                    ins.setString(2, lines.get(n)[0] + ": " + lines.get(n)[1]);
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            int chunk = 100_000;
            for (int from = 0; from < memories; from += chunk) {
                try (PreparedStatement st =
                        conn.prepareStatement(
                                "insert into memories (id, tenant_id, project_id, environment, user_id, type, content,"
                                        + " content_hash, source, importance, usage_count, last_accessed_at, tier,"
                                        + " decay_score, valid_from, embedding_version, created_at, metadata)"
                                        + " select gen_random_uuid(), 'tenant-' || (u % 10), 'default', 'production',"
                                        + " 'user-' || u, case when i % 10 = 9 then 'episodic' else 'semantic' end,"
                                        + " case when i % 10 = 1 then 'Again, ' || line else line end, md5(i::text), 'conversation',"
                                        + " imp, floor(power(random(), 3) * 50)::int, ?::timestamptz - make_interval(secs => idle),"
                                        + " case when idle / 86400 - 1 < 14 then 'hot' when idle / 86400 - 1 < 60 or imp >= 0.8"
                                        + " then 'warm' else 'cold' end,"
                                        + " round(power(0.5, greatest(0, floor(idle / 86400) - 1) / (30 * (1 + imp)))::numeric, 3),"
                                        + " ?::timestamptz - make_interval(secs => idle + 86400 * 30),"
                                        + " ?, ?::timestamptz - make_interval(secs => idle + 86400 * 30),"
                                        + " jsonb_build_object('n', i)"
                                        + " from (select i, (i / 10) % ? as u, random()::real as imp,"
                                        + " random() * 365 * 86400 as idle from generate_series(?, ?) as i) s"
                                        + " join corpus on corpus.n = (case when i % 10 = 1 then i - 1 else i end) % ?")) {
                    Timestamp asOf = Timestamp.from(AS_OF);
                    st.setTimestamp(1, asOf);
                    st.setTimestamp(2, asOf);
                    st.setString(3, c.embedding().version());
                    st.setTimestamp(4, asOf);
                    st.setInt(5, users);
                    st.setInt(6, from);
                    st.setInt(7, Math.min(memories, from + chunk) - 1);
                    st.setInt(8, lines.size());
                    st.executeUpdate();
                }
                System.out.printf("  rows: %,d%n", Math.min(memories, from + chunk));
            }
            conn.createStatement().execute("alter table memories set (autovacuum_enabled = on)");
            conn.createStatement().execute("vacuum analyze memories");
        }
    }

    /** Index documents of every row, with synthetic vectors, in parallel bulk requests. */
    private static void seedIndex(EngramConfig c, OpenSearchClient openSearch, int users)
            throws Exception {
        String alias = c.memoryIndexAlias();
        refreshInterval(openSearch, alias, "-1");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> pending = new ArrayList<>();
        int indexed = 0;
        try (Connection conn =
                DriverManager.getConnection(
                        c.postgres().url(), c.postgres().user(), c.postgres().password())) {
            conn.setAutoCommit(false);
            try (PreparedStatement st =
                    conn.prepareStatement(
                            "select id, tenant_id, project_id, environment, user_id, type, tier, content,"
                                    + " importance, valid_from, created_at, (metadata->>'n')::int as n from memories")) {
                st.setFetchSize(5000);
                try (ResultSet rs = st.executeQuery()) {
                    List<BulkOperation> lines = new ArrayList<>();
                    while (rs.next()) {
                        int n = rs.getInt("n");
                        String routing = rs.getString("tenant_id") + "/" + rs.getString("user_id");
                        String id = rs.getString("id");
                        ObjectNode doc = JSON.createObjectNode();
                        doc.put("id", rs.getString("id"));
                        doc.put("tenant_id", rs.getString("tenant_id"));
                        doc.put("project_id", rs.getString("project_id"));
                        doc.put("environment", rs.getString("environment"));
                        doc.put("user_id", rs.getString("user_id"));
                        doc.put("type", rs.getString("type"));
                        doc.put("tier", rs.getString("tier"));
                        doc.put("status", "active");
                        doc.putArray("tags");
                        doc.put("valid_from", rs.getTimestamp("valid_from").toInstant().toString());
                        doc.put("created_at", rs.getTimestamp("created_at").toInstant().toString());
                        doc.put("importance", rs.getDouble("importance"));
                        doc.put("version", 1);
                        doc.put("embedding_version", c.embedding().version());
                        doc.put("content", rs.getString("content"));
                        if (withVector(n, users)) {
                            ArrayNode vec = doc.putArray(MemoryIndex.VECTOR_FIELD);
                            for (float f : vector(n)) {
                                vec.add(f);
                            }
                        }
                        lines.add(
                                BulkOperation.of(
                                        b ->
                                                b.index(
                                                        i ->
                                                                i.index(alias)
                                                                        .id(id)
                                                                        .routing(routing)
                                                                        .document(doc))));
                        if (lines.size() >= 2000) {
                            List<BulkOperation> batch = lines;
                            pending.add(pool.submit(() -> Bulk.send(openSearch, batch, "false")));
                            lines = new ArrayList<>();
                            if (pending.size() >= 4) {
                                pending.remove(0).get();
                            }
                            indexed += 2000;
                            if (indexed % 100_000 == 0) {
                                System.out.printf("  documents: %,d%n", indexed);
                            }
                        }
                    }
                    List<BulkOperation> rest = lines;
                    pending.add(pool.submit(() -> Bulk.send(openSearch, rest, "false")));
                }
            }
            for (Future<?> f : pending) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        refreshInterval(openSearch, alias, "1s");
        OpenSearchException.call(
                "refreshing " + alias, () -> openSearch.indices().refresh(r -> r.index(alias)));
    }

    private static void refreshInterval(OpenSearchClient openSearch, String alias, String every) {
        OpenSearchException.call(
                "setting the refresh interval of " + alias,
                () ->
                        openSearch
                                .indices()
                                .putSettings(
                                        p ->
                                                p.index(alias)
                                                        .settings(
                                                                s ->
                                                                        s.refreshInterval(
                                                                                t ->
                                                                                        t.time(
                                                                                                every)))));
    }

    /**
     * Whether memory {@code n} is indexed with a vector: those of one user in ten. Building the
     * HNSW graph of a million vectors takes this machine over an hour, so the other users'
     * documents are indexed without one; decay and tiers never read vectors, consolidation skips
     * memories it finds no vector for.
     */
    static boolean withVector(int n, int users) {
        return ((n / 10) % users) % 10 == 0;
    }

    /** A unit vector per topic; the near-duplicate of memory 10k+1 is close to memory 10k's. */
    static float[] vector(int n) {
        int topic = n % 10 == 1 ? n - 1 : n;
        SplittableRandom r = new SplittableRandom(topic * 7919L + 13);
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) r.nextGaussian();
        }
        if (topic != n) {
            SplittableRandom noise = new SplittableRandom(n);
            for (int i = 0; i < DIM; i++) {
                v[i] += (float) (0.3 * noise.nextGaussian());
            }
        }
        double norm = 0;
        for (float f : v) {
            norm += f * f;
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < DIM; i++) {
            v[i] /= (float) norm;
        }
        return v;
    }

    private static String report(
            int memories,
            int users,
            double pgSeconds,
            double osSeconds,
            List<MaintenanceReport> reports) {
        StringBuilder s = new StringBuilder();
        s.append("# Maintenance jobs: throughput\n\n")
                .append("Command: `benchmarks/bin/maintenance ")
                .append(memories)
                .append(' ')
                .append(users)
                .append("`\n\n")
                .append("Machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ")
                .append(System.getProperty("java.version"))
                .append("; date ")
                .append(LocalDate.now())
                .append(
                        ". PostgreSQL, OpenSearch (one shard, 2 GB heap), Redis and a Flink mini"
                                + " cluster (job parallelism 2) share this machine.\n\n")
                .append(String.format("%,d memories over %,d users in 10 tenants", memories, users))
                .append(
                        ": last recall spread uniformly over a year, tiers and decay scores as a"
                                + " run the day before left them, usage counts skewed towards 0."
                                + " Contents are LoCoMo dev lines; one memory in ten has a"
                                + " near-duplicate, one in ten is an episode (never consolidated)."
                                + " The index documents of one user in ten carry synthetic unit"
                                + " vectors (a near-duplicate at cosine about 0.95); the others have"
                                + " none, because building the HNSW graph of a million vectors"
                                + " takes this machine over an hour (about 200 documents/s once the"
                                + " graph is large). Decay and tiers never read vectors, so their"
                                + " figure covers all 1M; consolidation scans every user but can"
                                + " only cluster the users with vectors, so its figure understates"
                                + " the clustering and folding work of a fully vectorised index."
                                + " Tier moves are partial updates of real documents either way.\n\n")
                .append(
                        String.format(
                                "Seeding: PostgreSQL %.0f s, index %.0f s (%,.0f documents/s).%n%n",
                                pgSeconds, osSeconds, memories / osSeconds))
                .append("| job | run | memories scanned | time (s) | memories/s | changes |\n")
                .append("|---|---|---:|---:|---:|---|\n");
        int[] run = new int[MaintenanceKind.values().length];
        for (MaintenanceReport r : reports) {
            s.append(
                    String.format(
                            "| %s | %d | %,d | %.1f | %,.0f | %s |%n",
                            r.job().wireName(),
                            ++run[r.job().ordinal()],
                            r.scanned(),
                            r.took().toMillis() / 1000.0,
                            r.scannedPerSecond(),
                            r.changed().isEmpty() ? "none" : r.changed().toString()));
        }
        s.append(
                "\nmemories/s is memories scanned per second of the whole run (job submission,"
                        + " scans, decisions, PostgreSQL and index writes). Decay+tiers target:"
                        + " ≥ 20,000 memories/s. The second run of each job is the idempotence"
                        + " check: it must change nothing. Consolidation embeds each folded text"
                        + " with the real model; `scanned` counts the non-episodic memories of"
                        + " users with at least two.\n");
        return s.toString();
    }
}
