package io.engram.jobs.maintenance;

import io.engram.dedup.ValueChange;
import io.engram.memory.MemoryType;
import io.engram.text.Text;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Clusters a user's related memories and folds a cluster into one text that keeps every distinct
 * fact verbatim: a value that changed is written with its earlier values ("... $12,000 (earlier:
 * ... $10,000)"), facts contained in another are dropped, the rest are joined in time order.
 */
public final class Consolidator {

    /** The longest folded text; bigger clusters are left as they are. */
    public static final int MAX_CONTENT = 8000;

    private Consolidator() {}

    /** A current memory; {@code folded} when it is itself the result of a consolidation. */
    public record Member(
            UUID id,
            MemoryType type,
            String content,
            Instant validFrom,
            float[] vector,
            boolean folded) {}

    /**
     * Single-link clusters of members of the same type whose cosine similarity reaches {@code
     * threshold}; episodes are never clustered. Only clusters of two or more with at least one
     * member not folded before are returned (folded memories are never merged among themselves, so
     * a repeated run finds nothing new), each in time order, ordered by their first member.
     */
    public static List<List<Member>> clusters(List<Member> members, double threshold) {
        List<Member> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.comparing(Member::validFrom).thenComparing(Member::id));
        int n = sorted.size();
        int[] parent = new int[n];
        double[] norms = new double[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
            norms[i] = norm(sorted.get(i).vector());
        }
        for (int i = 0; i < n; i++) {
            Member a = sorted.get(i);
            if (a.type() == MemoryType.EPISODIC || norms[i] == 0) {
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                Member b = sorted.get(j);
                if (b.type() != a.type() || norms[j] == 0) {
                    continue;
                }
                double cos = dot(a.vector(), b.vector()) / (norms[i] * norms[j]);
                if (cos >= threshold) {
                    union(parent, i, j);
                }
            }
        }
        Map<Integer, List<Member>> groups = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(sorted.get(i));
        }
        List<List<Member>> out = new ArrayList<>();
        for (List<Member> g : groups.values()) {
            if (g.size() >= 2 && g.stream().anyMatch(m -> !m.folded())) {
                out.add(g);
            }
        }
        return out;
    }

    /** The folded text of a cluster given in time order. */
    public static String fold(List<Member> cluster) {
        List<String> texts = new ArrayList<>();
        for (Member m : cluster) {
            texts.add(trimEnd(m.content()));
        }
        int n = texts.size();
        boolean[] dropped = new boolean[n];
        for (int i = 0; i < n; i++) {
            String ni = Text.normalizeForHash(texts.get(i));
            for (int j = 0; j < n && !dropped[i]; j++) {
                if (i == j || dropped[j]) {
                    continue;
                }
                String nj = Text.normalizeForHash(texts.get(j));
                // Identical texts keep the newest; a text inside a longer one adds nothing.
                if (nj.contains(ni) && (nj.length() > ni.length() || j > i)) {
                    dropped[i] = true;
                }
            }
        }
        // Link each earlier value to the newest later text that states the same thing.
        int[] newerOf = new int[n];
        java.util.Arrays.fill(newerOf, -1);
        for (int i = 0; i < n; i++) {
            if (dropped[i]) {
                continue;
            }
            for (int j = n - 1; j > i; j--) {
                if (!dropped[j] && ValueChange.between(texts.get(i), texts.get(j)).isPresent()) {
                    newerOf[i] = j;
                    break;
                }
            }
        }
        Map<Integer, List<String>> earlier = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            if (!dropped[i] && newerOf[i] >= 0) {
                int head = newerOf[i];
                while (newerOf[head] >= 0) {
                    head = newerOf[head];
                }
                earlier.computeIfAbsent(head, k -> new ArrayList<>()).add(texts.get(i));
            }
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (dropped[i] || newerOf[i] >= 0) {
                continue;
            }
            List<String> before = earlier.get(i);
            parts.add(
                    before == null
                            ? texts.get(i)
                            : texts.get(i) + " (earlier: " + String.join("; ", before) + ")");
        }
        return String.join("; ", parts) + ".";
    }

    private static String trimEnd(String s) {
        String t = s.strip();
        while (t.endsWith(".") || t.endsWith(";")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        return t;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static double norm(float[] v) {
        return v == null ? 0 : Math.sqrt(dot(v, v));
    }
}
