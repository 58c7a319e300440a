package io.engram.client;

import java.util.Map;

/** Each operation of the contract, and the client method that calls it (null: none, on purpose). */
final class EngramClientOperations {

    private EngramClientOperations() {}

    static final Map<String, String> COVERED =
            Map.ofEntries(
                    Map.entry("POST /v1/turns", "sendTurns"),
                    Map.entry("POST /v1/memories/search", "search"),
                    Map.entry("POST /v1/context", "context"),
                    Map.entry("POST /v1/memories", "store"),
                    Map.entry("GET /v1/memories", "list"),
                    Map.entry("DELETE /v1/memories", "forget"),
                    Map.entry("GET /v1/memories/{id}", "get"),
                    Map.entry("PATCH /v1/memories/{id}", "edit"),
                    Map.entry("DELETE /v1/memories/{id}", "delete"),
                    Map.entry("GET /v1/memories/{id}/history", "history"),
                    Map.entry("POST /v1/memories/{id}/restore", "restore"),
                    Map.entry("POST /v1/admin/keys", "createKey"),
                    Map.entry("GET /v1/admin/keys", "listKeys"),
                    Map.entry("DELETE /v1/admin/keys/{id}", "revokeKey"),
                    Map.entry("POST /v1/admin/maintenance/{job}", "requestMaintenance"),
                    Map.entry("GET /v1/admin/maintenance/runs/{id}", "maintenanceRun"),
                    Map.entry("GET /v1/admin/retention-rules", "retentionRules"),
                    Map.entry("PUT /v1/admin/retention-rules", "setRetentionRule"),
                    Map.entry("DELETE /v1/admin/retention-rules/{id}", "deleteRetentionRule"),
                    Map.entry("GET /health/live", "live"),
                    Map.entry("GET /health/ready", "ready"),
                    Map.entry("GET /health/write-plane", "writePlane"),
                    Map.entry("GET /metrics", "metrics"));
}
