package io.engram.jobs.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code maintenance_runs} table: requested runs (by the schedule, the admin API or the command
 * line) waiting for a runner, running ones, and finished ones with their reports.
 */
public final class MaintenanceRuns {

    /** A run as the runner picks it up. */
    public record Run(UUID id, MaintenanceKind job, String tenant, Instant asOf) {}

    private MaintenanceRuns() {}

    public static UUID request(
            Connection c, MaintenanceKind job, String tenantOrNull, Instant asOf, String by)
            throws SQLException {
        UUID id = UUID.randomUUID();
        try (PreparedStatement st =
                c.prepareStatement(
                        "insert into maintenance_runs (id, job, tenant_id, as_of, requested_by, status)"
                                + " values (?, ?, ?, ?, ?, 'requested')")) {
            st.setObject(1, id);
            st.setString(2, job.wireName());
            st.setString(3, tenantOrNull);
            st.setTimestamp(4, Timestamp.from(asOf));
            st.setString(5, by);
            st.executeUpdate();
        }
        return id;
    }

    /** Marks a requested run as running; empty if another runner took it first. */
    public static Optional<Run> claim(Connection c, UUID id) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "update maintenance_runs set status = 'running', started_at = now(), heartbeat_at = now()"
                                + " where id = ? and status = 'requested' returning job, tenant_id, as_of")) {
            st.setObject(1, id);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new Run(
                                id,
                                MaintenanceKind.fromWire(rs.getString(1)),
                                rs.getString(2),
                                rs.getTimestamp(3).toInstant()));
            }
        }
    }

    /** When a claimed run started, by PostgreSQL's clock (the clock of {@code updated_at}). */
    public static Instant startedAt(Connection c, UUID id) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement("select started_at from maintenance_runs where id = ?")) {
            st.setObject(1, id);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next() || rs.getTimestamp(1) == null) {
                    throw new IllegalStateException("maintenance run " + id + " has not started");
                }
                return rs.getTimestamp(1).toInstant();
            }
        }
    }

    /** The runner of a running run says it is still at it. */
    public static void beat(Connection c, UUID id) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "update maintenance_runs set heartbeat_at = now() where id = ? and status = 'running'")) {
            st.setObject(1, id);
            st.executeUpdate();
        }
    }

    /**
     * Fails the running runs whose runner has not beaten for {@code silence}: its process ended
     * without finishing them (killed, or its machine lost). Returns how many.
     */
    public static int failAbandoned(Connection c, Duration silence) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "update maintenance_runs set status = 'failed', finished_at = now(),"
                                + " error = 'abandoned: its runner stopped without finishing (last heartbeat '"
                                + " || coalesce(heartbeat_at, started_at) || ')'"
                                + " where status = 'running'"
                                + " and coalesce(heartbeat_at, started_at) < now() - make_interval(secs => ?)")) {
            st.setDouble(1, silence.toMillis() / 1000.0);
            return st.executeUpdate();
        }
    }

    /** Whether a run asked for by {@code requestedBy} is running. */
    public static boolean anyRunning(Connection c, String requestedBy) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "select 1 from maintenance_runs where status = 'running' and requested_by = ? limit 1")) {
            st.setString(1, requestedBy);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The oldest requested run, claimed; empty when none waits. */
    public static Optional<Run> claimNext(Connection c) throws SQLException {
        try (PreparedStatement st =
                        c.prepareStatement(
                                "select id from maintenance_runs where status = 'requested'"
                                        + " order by requested_at limit 1");
                ResultSet rs = st.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            return claim(c, rs.getObject(1, UUID.class));
        }
    }

    public static Map<String, Long> counts(Connection c, UUID id) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "select name, value from maintenance_run_counts where run_id = ?")) {
            st.setObject(1, id);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    public static void succeed(Connection c, MaintenanceReport report) throws SQLException {
        finish(c, report.runId(), "succeeded", report.toJson().toString(), null);
    }

    public static void fail(Connection c, UUID id, String error) throws SQLException {
        finish(c, id, "failed", null, error);
    }

    private static void finish(Connection c, UUID id, String status, String report, String error)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "update maintenance_runs set status = ?, finished_at = now(), report = ?::jsonb,"
                                + " error = ? where id = ?")) {
            st.setString(1, status);
            st.setString(2, report);
            st.setString(3, error);
            st.setObject(4, id);
            st.executeUpdate();
        }
    }

    /**
     * The failed runs that started and whose index has not been repaired since (see {@link
     * IndexRepair}), oldest first.
     */
    public static List<UUID> unrepaired(Connection c) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement st =
                        c.prepareStatement(
                                "select id from maintenance_runs where status = 'failed'"
                                        + " and started_at is not null and index_repaired_at is null"
                                        + " order by started_at");
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getObject(1, UUID.class));
            }
        }
        return out;
    }

    /**
     * Records that what the failed runs {@code ids} may have left behind in the index is mended.
     */
    public static void markRepaired(Connection c, List<UUID> ids) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "update maintenance_runs set index_repaired_at = now() where id = any(?)")) {
            st.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            st.executeUpdate();
        }
    }

    /** When the last scheduled run of {@code job} that did not fail was asked for, if ever. */
    public static Optional<Instant> lastScheduled(Connection c, MaintenanceKind job)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "select max(as_of) from maintenance_runs where job = ? and requested_by = 'schedule'"
                                + " and status <> 'failed'")) {
            st.setString(1, job.wireName());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                Timestamp t = rs.getTimestamp(1);
                return Optional.ofNullable(t).map(Timestamp::toInstant);
            }
        }
    }
}
