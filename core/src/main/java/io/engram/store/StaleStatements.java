package io.engram.store;

import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.NoLonger;
import io.engram.memory.Memory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * When a fact supersedes another, the user's other current memories that state the old value — the
 * excerpt of the turn that said it, the session summary, a restatement — stop being presented as
 * current: they name the fact that contradicts them ({@code contradicted_by}) and their consistency
 * drops to {@value #CONSISTENCY}. They stay records of what was said (history, search with their
 * words), and recall ranks them below what is current.
 *
 * <p>A memory counts as stating the old value when its words hold it and it comes from the old
 * fact's turns or speaks of the same thing (the attribute's words), and it neither holds the new
 * value nor comes from the new fact's turns (an excerpt that tells the change is current).
 */
public final class StaleStatements {

    public static final double CONSISTENCY = 0.2;

    private static final String MARK =
            "update memories set contradicted_by = ?, consistency_score = least(consistency_score, ?),"
                    + " updated_at = now() where tenant_id = ? and project_id = ? and environment = ?"
                    + " and user_id = ? and status = 'active' and contradicted_by is null"
                    + " and id <> ? and id <> ?"
                    + " and strpos(lower(content), lower(?)) > 0"
                    + " and strpos(lower(content), lower(?)) = 0"
                    + " and (source_turn_ids && ? or content ~* ?)"
                    + " and not (source_turn_ids && ?)";

    private StaleStatements() {}

    private static final String CONTRADICT =
            "update memories set contradicted_by = ?, consistency_score = least(consistency_score, ?),"
                    + " updated_at = now() where id = ? and status = 'active' and contradicted_by is null";

    /**
     * Marks a statement as contradicted by the excerpt of a later turn that tells its value changed
     * ({@link io.engram.memory.MemoryChange.Contradicted}), and with it what quotes the value among
     * the statement's own turns (its excerpt, its session's summary); false when the statement was
     * already marked, superseded or gone.
     */
    static boolean contradict(Connection c, io.engram.memory.MemoryChange.Contradicted x)
            throws SQLException {
        Memory old = x.memory();
        try (PreparedStatement st = c.prepareStatement(CONTRADICT)) {
            st.setObject(1, x.by());
            st.setDouble(2, CONSISTENCY);
            st.setObject(3, old.id());
            if (st.executeUpdate() == 0) {
                return false;
            }
        }
        mark(c, old, x.by(), x.byTurns(), x.word(), FactKey.NONE, NOTHING);
        return true;
    }

    /**
     * Marks what states {@code old}'s value as contradicted by {@code current}; returns how many.
     */
    static int mark(Connection c, Memory old, Memory current) throws SQLException {
        Optional<Stale> stale = stale(old.content(), current.content());
        return stale.isEmpty()
                ? 0
                : mark(c, old, current, stale.get().was(), stale.get().now(), stale.get().cue());
    }

    /**
     * What the stale copies of a superseded statement quote ({@code was}), what they must not
     * ({@code now}), and the words of its attribute beyond the old statement's turns ({@link
     * #NOTHING}: only those turns).
     */
    record Stale(String was, String now, String cue) {}

    /** How to find what still states {@code old} once {@code current} replaced it, if anything. */
    static Optional<Stale> stale(String old, String current) {
        Optional<FactKey> was = FactKey.of(old);
        Optional<FactKey> now = FactKey.of(current);
        if (was.isEmpty()) {
            // "Dana uses Spotify." ended by "Dana no longer uses Spotify.", or "Dana is learning
            // spanish on duolingo." by "Dana is learning japanese.": what quotes the old value
            // among the old statement's turns (its excerpt, its session's summary).
            return NoLonger.leftValue(old, current)
                    .or(() -> switched(old, current))
                    .map(v -> new Stale(v, FactKey.NONE, NOTHING));
        }
        String wasValue = named(was.get().quoted());
        if (wasValue.length() < 2) {
            return Optional.empty();
        }
        if (now.isEmpty()) {
            // An ending in its own words ("Dana got divorced from Hannah.", "Dana's dog Rex
            // died."): the old value may stand in it, so only the old statement's turns count.
            return Optional.of(new Stale(wasValue, FactKey.NONE, NOTHING));
        }
        String nowValue = named(now.get().quoted());
        if (nowValue.equalsIgnoreCase(wasValue)) {
            // "married to Hannah" then "divorced to Hannah": the same name in another status.
            return Optional.of(new Stale(wasValue, FactKey.NONE, NOTHING));
        }
        return Optional.of(new Stale(wasValue, nowValue, was.get().cueWords()));
    }

    /** A partner's status as their name alone: "married to Hannah" is quoted "Hannah". */
    private static String named(String quoted) {
        return quoted.replaceFirst(
                "^(?:married to|engaged to|divorced (?:to|from)|dating|broke up with) ", "");
    }

    /** Words that end a value and begin where or how it held: "spanish on duolingo". */
    private static final java.util.Set<String> AFTER_VALUE =
            java.util.Set.of("on", "at", "in", "with", "for", "from", "to", "via", "through", "by");

    /**
     * The old value of two statements in the same words but for it: "spanish" of "Dana is learning
     * spanish on duolingo." against "Dana is learning japanese.".
     */
    static Optional<String> switched(String old, String current) {
        String[] o = old.strip().replaceFirst("[.!]+$", "").split("\\s+");
        String[] n = current.strip().replaceFirst("[.!]+$", "").split("\\s+");
        int k = 0;
        while (k < o.length && k < n.length && o[k].equalsIgnoreCase(n[k])) {
            k++;
        }
        if (k < 2 || k >= o.length) {
            return Optional.empty();
        }
        StringBuilder value = new StringBuilder();
        for (int i = k; i < o.length && !AFTER_VALUE.contains(o[i].toLowerCase(Locale.ROOT)); i++) {
            value.append(value.length() == 0 ? "" : " ").append(o[i]);
        }
        String v = value.toString();
        return v.length() < 3
                        || current.toLowerCase(Locale.ROOT).contains(v.toLowerCase(Locale.ROOT))
                ? Optional.empty()
                : Optional.of(v);
    }

    /** A regular expression no content matches: only the old statement's turns count. */
    private static final String NOTHING = "a^";

    private static int mark(
            Connection c, Memory old, Memory current, String was, String now, String cueWords)
            throws SQLException {
        return mark(c, old, current.id(), current.sourceTurnIds(), was, now, cueWords);
    }

    private static int mark(
            Connection c,
            Memory old,
            java.util.UUID current,
            java.util.List<String> currentTurns,
            String was,
            String now,
            String cueWords)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement(MARK)) {
            st.setObject(1, current);
            st.setDouble(2, CONSISTENCY);
            MemoryEvents.bindScope(st, 3, old.scope());
            st.setObject(7, current);
            st.setObject(8, old.id());
            st.setString(9, was);
            st.setString(10, now);
            st.setArray(11, c.createArrayOf("text", old.sourceTurnIds().toArray()));
            st.setString(12, cueWords);
            st.setArray(13, c.createArrayOf("text", currentTurns.toArray()));
            return st.executeUpdate();
        }
    }
}
