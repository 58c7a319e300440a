package io.engram.jobs.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** What a run did: memories scanned, changes by kind, time taken. */
public record MaintenanceReport(
        UUID runId,
        MaintenanceKind job,
        String tenant,
        Instant asOf,
        long scanned,
        Map<String, Long> changed,
        Instant startedAt,
        Duration took,
        String note) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public MaintenanceReport {
        changed = new TreeMap<>(changed);
    }

    public long totalChanged() {
        return changed.entrySet().stream()
                .filter(e -> !e.getKey().equals("users_over_quota"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** Memories scanned per second of the whole run. */
    public double scannedPerSecond() {
        return took.toNanos() == 0 ? 0 : scanned * 1e9 / took.toNanos();
    }

    public ObjectNode toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("run_id", runId.toString());
        o.put("job", job.wireName());
        if (tenant != null) {
            o.put("tenant_id", tenant);
        }
        o.put("as_of", asOf.toString());
        o.put("scanned", scanned);
        ObjectNode c = o.putObject("changed");
        changed.forEach(c::put);
        o.put("started_at", startedAt.toString());
        o.put("took_ms", took.toMillis());
        if (note != null) {
            o.put("note", note);
        }
        return o;
    }

    @Override
    public String toString() {
        return job.wireName()
                + (tenant == null ? "" : " [" + tenant + "]")
                + ": scanned "
                + scanned
                + ", changed "
                + changed
                + " in "
                + took.toMillis()
                + " ms"
                + (note == null ? "" : " (" + note + ")");
    }
}
