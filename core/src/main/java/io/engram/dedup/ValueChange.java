package io.engram.dedup;

import io.engram.text.Text;
import io.engram.text.Values;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells whether two statements give different values for the same thing: "Alice's budget for the
 * Hawaii trip is $10,000" and "Alice is raising the Hawaii trip budget to $15,000", or "Alice lives
 * in Boston" and "Alice moved to Denver".
 */
public final class ValueChange {

    /** A detected change: the shared subject and the old and new values. */
    public record Change(String subject, String oldValue, String newValue) {}

    private static final Pattern COPULA = Pattern.compile("(?i)\\s(?:is|are|was|were)\\s");
    private static final double SUBJECT_CONTAINMENT = 0.8;
    private static final double SUBJECT_JACCARD = 0.5;

    /** Words that say something changed; they do not make the subject different. */
    private static final Set<String> CHANGE_WORDS =
            Set.of(
                    "raising",
                    "raised",
                    "raise",
                    "increase",
                    "increased",
                    "increasing",
                    "bumped",
                    "bump",
                    "lowered",
                    "lower",
                    "cut",
                    "reduced",
                    "reduce",
                    "changed",
                    "change",
                    "changing",
                    "switched",
                    "switch",
                    "updated",
                    "update",
                    "revised",
                    "moving",
                    "decided",
                    "now",
                    "instead",
                    "longer",
                    "anymore",
                    "set",
                    "going",
                    "will",
                    "planning",
                    "plan");

    /** Words with the same meaning for this purpose, mapped to one form. */
    private static final Map<String, String> CANONICAL = new HashMap<>();

    static {
        for (String w :
                List.of(
                        "moved",
                        "move",
                        "relocated",
                        "relocate",
                        "live",
                        "lives",
                        "living",
                        "lived",
                        "based",
                        "reside",
                        "resides",
                        "moving")) {
            CANONICAL.put(w, "reside");
        }
        for (String w : List.of("spend", "spending", "budget", "budgeted")) {
            CANONICAL.put(w, "budget");
        }
        for (String w :
                List.of("work", "works", "working", "worked", "job", "employed", "employer")) {
            CANONICAL.put(w, "work");
        }
        for (String w : List.of("address")) {
            CANONICAL.put(w, "reside");
        }
    }

    private ValueChange() {}

    /**
     * The change from {@code older} to {@code newer}, if they state different values of one thing.
     */
    public static Optional<Change> between(String older, String newer) {
        Optional<Change> byValues = byValues(older, newer);
        return byValues.isPresent() ? byValues : byCopula(older, newer);
    }

    private static Optional<Change> byValues(String older, String newer) {
        List<Values.Value> oldValues = Values.find(older);
        List<Values.Value> newValues = Values.find(newer);
        if (oldValues.isEmpty() || newValues.isEmpty()) {
            return Optional.empty();
        }
        Set<String> oldSubject = subject(Values.mask(older));
        Set<String> newSubject = subject(Values.mask(newer));
        if (!sameSubject(oldSubject, newSubject)) {
            return Optional.empty();
        }
        for (Values.Kind kind : Values.Kind.values()) {
            Set<String> a = normalized(oldValues, kind);
            Set<String> b = normalized(newValues, kind);
            if (!a.isEmpty() && !b.isEmpty() && !a.equals(b)) {
                Set<String> removed = new TreeSet<>(a);
                removed.removeAll(b);
                Set<String> added = new TreeSet<>(b);
                added.removeAll(a);
                if (removed.isEmpty() || added.isEmpty()) {
                    continue; // one adds detail to the other: not a change of value
                }
                return Optional.of(
                        new Change(
                                String.join(" ", newSubject),
                                text(oldValues, kind, removed),
                                text(newValues, kind, added)));
            }
        }
        return Optional.empty();
    }

    private static Optional<Change> byCopula(String older, String newer) {
        Matcher mo = COPULA.matcher(older);
        Matcher mn = COPULA.matcher(newer);
        if (!mo.find() || !mn.find()) {
            return Optional.empty();
        }
        Set<String> oldSubject = subject(older.substring(0, mo.start()));
        Set<String> newSubject = subject(newer.substring(0, mn.start()));
        // "Joanna is lactose intolerant" and "Joanna is writing a script": a person is many things
        // at once; only a thing of theirs has one value ("Joanna's budget is …").
        if (oldSubject.size() < 2 || Text.jaccard(oldSubject, newSubject) < SUBJECT_CONTAINMENT) {
            return Optional.empty();
        }
        String oldComplement = older.substring(mo.end());
        String newComplement = newer.substring(mn.end());
        Set<String> oc = Text.contentWords(oldComplement);
        Set<String> nc = Text.contentWords(newComplement);
        if (oc.isEmpty()
                || nc.isEmpty()
                || oc.size() > 4
                || nc.size() > 4
                || Text.jaccard(oc, nc) > 0.5) {
            return Optional.empty();
        }
        return Optional.of(
                new Change(
                        String.join(" ", newSubject),
                        oldComplement.strip(),
                        newComplement.strip()));
    }

    private static boolean sameSubject(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        // A restatement may add a reason ("because flights got pricier"): the smaller subject must
        // be inside the larger one, and be more than one word or most of it.
        return Text.containment(a, b) >= SUBJECT_CONTAINMENT
                && (Math.min(a.size(), b.size()) >= 2 || Text.jaccard(a, b) >= SUBJECT_JACCARD);
    }

    private static Set<String> subject(String masked) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : Text.contentWords(masked.replaceAll("<[A-Z]+>", " "))) {
            if (CHANGE_WORDS.contains(w)) {
                continue;
            }
            out.add(CANONICAL.getOrDefault(w, w));
        }
        return out;
    }

    private static Set<String> normalized(List<Values.Value> values, Values.Kind kind) {
        Set<String> out = new TreeSet<>();
        for (Values.Value v : values) {
            if (v.kind() == kind) {
                out.add(normalize(v));
            }
        }
        return out;
    }

    private static String normalize(Values.Value v) {
        String n = v.normalized();
        if (v.kind() == Values.Kind.NAME && n.endsWith("s") && v.text().matches(".*['’]s$")) {
            n = n.substring(0, n.length() - 1);
        }
        return n;
    }

    private static String text(List<Values.Value> values, Values.Kind kind, Set<String> wanted) {
        for (Values.Value v : values) {
            if (v.kind() == kind && wanted.contains(normalize(v))) {
                return v.text();
            }
        }
        return String.join(", ", wanted);
    }
}
