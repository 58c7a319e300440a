package io.engram.jobs.maintenance;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The maintenance jobs, by the name they have in the API, the CLI and the runs table. */
public enum MaintenanceKind {
    DECAY("recompute decay scores and usage percentiles, move memories between tiers"),
    CONSOLIDATE("fold clusters of related memories into one, originals to the archive"),
    RETENTION("expire memories past their retention rule, delete them after the grace period"),
    QUOTA("archive the lowest-value memories of users over their quota"),
    REINDEX("rebuild the memory index from PostgreSQL and switch the alias");

    private final String description;

    MaintenanceKind(String description) {
        this.description = description;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String description() {
        return description;
    }

    /** The jobs a daily schedule runs, in order (reindex runs on demand only). */
    public static final MaintenanceKind[] DAILY = {RETENTION, CONSOLIDATE, QUOTA, DECAY};

    public static MaintenanceKind fromWire(String value) {
        for (MaintenanceKind k : values()) {
            if (k.wireName().equals(value)) {
                return k;
            }
        }
        throw new IllegalArgumentException(
                "unknown maintenance job '"
                        + value
                        + "'; expected one of "
                        + Arrays.stream(values())
                                .map(MaintenanceKind::wireName)
                                .collect(Collectors.joining(", ")));
    }
}
