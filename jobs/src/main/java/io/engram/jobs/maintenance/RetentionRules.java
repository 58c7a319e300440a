package io.engram.jobs.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Retention rules resolved most-specific first: project + category, tenant + category, project
 * default, tenant default; no rule at any level keeps a memory forever. A rule without {@code
 * keep_days} keeps forever at its level, overriding the levels after it.
 */
public final class RetentionRules {

    /** A resolved rule: keep for {@code keepDays} (empty: forever), then a grace period. */
    public record Rule(Optional<Integer> keepDays, int graceDays) {
        public static final Rule FOREVER = new Rule(Optional.empty(), 0);
    }

    private final Map<String, Rule> rules = new HashMap<>();

    public void add(String tenant, String projectOrNull, String categoryOrNull, Rule rule) {
        rules.put(key(tenant, projectOrNull, categoryOrNull), rule);
    }

    public Rule resolve(String tenant, String project, String category) {
        for (String key :
                new String[] {
                    key(tenant, project, category),
                    key(tenant, null, category),
                    key(tenant, project, null),
                    key(tenant, null, null)
                }) {
            Rule r = rules.get(key);
            if (r != null) {
                return r;
            }
        }
        return Rule.FOREVER;
    }

    public Set<String> tenants() {
        Set<String> out = new java.util.TreeSet<>();
        rules.keySet().forEach(k -> out.add(k.substring(0, k.indexOf('\u0000'))));
        return out;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The rules stored for every tenant (or one). */
    public static RetentionRules load(Connection c, String tenantOrNull) throws SQLException {
        RetentionRules out = new RetentionRules();
        try (PreparedStatement st =
                c.prepareStatement(
                        "select tenant_id, project_id, category, keep_days, grace_days from retention_rules"
                                + (tenantOrNull == null ? "" : " where tenant_id = ?"))) {
            if (tenantOrNull != null) {
                st.setString(1, tenantOrNull);
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    int keep = rs.getInt("keep_days");
                    Optional<Integer> keepDays =
                            rs.wasNull() ? Optional.empty() : Optional.of(keep);
                    out.add(
                            rs.getString("tenant_id"),
                            rs.getString("project_id"),
                            rs.getString("category"),
                            new Rule(keepDays, rs.getInt("grace_days")));
                }
            }
        }
        return out;
    }

    private static String key(String tenant, String project, String category) {
        return tenant
                + '\u0000'
                + (project == null ? "" : project)
                + '\u0000'
                + (category == null ? "" : category);
    }
}
