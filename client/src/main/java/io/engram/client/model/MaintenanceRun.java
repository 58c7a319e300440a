package io.engram.client.model;

import java.time.Instant;
import java.util.Map;

/** A maintenance run: requested, running, succeeded or failed, and once it ended its report. */
public record MaintenanceRun(
        String runId,
        String job,
        String tenantId,
        String status,
        Instant requestedAt,
        Instant startedAt,
        Instant finishedAt,
        Map<String, Object> report,
        String error) {

    public boolean ended() {
        return "succeeded".equals(status) || "failed".equals(status);
    }
}
