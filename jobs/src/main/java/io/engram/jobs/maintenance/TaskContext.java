package io.engram.jobs.maintenance;

import io.engram.cache.RedisConnection;
import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.jobs.store.CacheGenerations;
import io.engram.jobs.store.RedisConnections;
import io.engram.memory.Scope;
import io.engram.store.Transactions;
import io.engram.store.opensearch.Bulk;
import io.engram.store.opensearch.OpenSearchClients;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one partition of a maintenance run works with: its slice of the users, the clock of the run,
 * connections to the stores and the counters that end up in the run's report.
 */
public final class TaskContext implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TaskContext.class);

    private final MaintenanceSettings settings;
    private final Instant asOf;
    private final String tenant;
    private final int partition;
    private final int partitions;
    private final Connection read;
    private final Connection write;
    private final OpenSearchClient openSearch;
    private final RedisConnection redis;
    private final CacheGenerations.Pending bumps;
    private final Map<String, Long> counts = new TreeMap<>();
    private Embedder embedder;

    public TaskContext(
            MaintenanceSettings settings,
            Instant asOf,
            String tenantOrNull,
            int partition,
            int partitions)
            throws SQLException {
        this.settings = settings;
        this.asOf = asOf;
        this.tenant = tenantOrNull;
        this.partition = partition;
        this.partitions = partitions;
        this.read = connect(settings);
        this.read.setAutoCommit(false);
        this.write = connect(settings);
        this.openSearch =
                OpenSearchClients.create(
                        settings.openSearchUrl(),
                        settings.openSearchAuth(),
                        Duration.ofSeconds(60));
        this.redis = RedisConnections.open(settings.redis());
        this.bumps = new CacheGenerations.Pending(redis, true);
    }

    /** A new connection to the database the settings name. */
    public static Connection connect(MaintenanceSettings s) throws SQLException {
        return s.postgres().connect();
    }

    public MaintenanceSettings settings() {
        return settings;
    }

    public Instant asOf() {
        return asOf;
    }

    /** The connection scans read from (one long transaction, cursor fetches). */
    public Connection read() {
        return read;
    }

    /** The connection changes are written with (short transactions). */
    public Connection write() {
        return write;
    }

    /**
     * Writes index lines that follow a PostgreSQL commit. OpenSearch refusing them for the moment
     * (unreachable, too many requests, unavailable) is waited out for up to 7.5 s before the run
     * fails and the index is left behind PostgreSQL.
     */
    public void index(List<BulkOperation> lines, String refresh) {
        index(openSearch, lines, refresh);
    }

    /** {@link #index(List, String)} through another client. */
    static void index(OpenSearchClient client, List<BulkOperation> lines, String refresh) {
        Bulk.sendRetrying(client, lines, refresh, INDEX_ATTEMPTS, d -> Thread.sleep(d.toMillis()));
    }

    /** Sends of one batch of index lines: waits of 0.5, 1, 2 and 4 s between them. */
    static final int INDEX_ATTEMPTS = 5;

    public OpenSearchClient openSearch() {
        return openSearch;
    }

    public String alias() {
        return settings.indexAlias();
    }

    /**
     * The filter of this partition's rows of {@code memories} (all memories of a user are in one
     * partition), plus the run's tenant when it has one; bind it with {@link #bindScope}.
     */
    public String scopeFilter() {
        return "((hashtext(tenant_id || '/' || user_id) & 2147483647) % "
                + partitions
                + ") = "
                + partition
                + (tenant == null ? "" : " and tenant_id = ?");
    }

    /** Binds the parameters of {@link #scopeFilter} from {@code index}; returns the next index. */
    public int bindScope(PreparedStatement st, int index) throws SQLException {
        if (tenant != null) {
            st.setString(index++, tenant);
        }
        return index;
    }

    public String tenant() {
        return tenant;
    }

    public void count(String name, long delta) {
        if (delta != 0) {
            counts.merge(name, delta, Long::sum);
        }
    }

    public Map<String, Long> counts() {
        return counts;
    }

    /**
     * Invalidates the cached recall results of the scopes whose memories changed, and has the
     * extraction job reload those users.
     */
    public void bump(Collection<Scope> scopes) {
        bumps.bump(scopes);
    }

    /** Runs {@code work} in one transaction on the write connection. */
    public <T> T transaction(Transactions.Work<T> work) throws SQLException {
        return Transactions.in(write, work);
    }

    /** The embedding model, loaded on first use. */
    public Embedder embedder() {
        if (embedder == null) {
            embedder =
                    OnnxEmbedder.load(
                            ModelSpec.forVersion(settings.embeddingVersion()),
                            Path.of(settings.modelDir()),
                            settings.intraOpThreads());
        }
        return embedder;
    }

    /** Adds this partition's counts to the run's. */
    public void flushCounts(UUID runId) throws SQLException {
        try (PreparedStatement st =
                write.prepareStatement(
                        "insert into maintenance_run_counts (run_id, name, value) values (?, ?, ?)"
                                + " on conflict (run_id, name) do update set value ="
                                + " maintenance_run_counts.value + excluded.value")) {
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                st.setObject(1, runId);
                st.setString(2, e.getKey());
                st.setLong(3, e.getValue());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    @Override
    public void close() {
        bumps.retry();
        if (bumps.waiting() > 0) {
            LOG.warn(
                    "{} user(s)' cache invalidations not taken by Redis: their cached recall"
                            + " answers live until they expire",
                    bumps.waiting());
        }
        try {
            read.rollback();
        } catch (SQLException ignored) {
            // closing anyway
        }
        for (AutoCloseable c : new AutoCloseable[] {read, write, embedder, redis}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    LOG.debug("close failed", e);
                }
            }
        }
    }
}
