package io.engram.store;

import io.engram.extraction.statements.Departure;
import io.engram.extraction.statements.FactKey;
import io.engram.memory.Memory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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

    /**
     * Marks what states {@code old}'s value as contradicted by {@code current}; returns how many.
     */
    static int mark(Connection c, Memory old, Memory current) throws SQLException {
        Optional<FactKey> was = FactKey.of(old.content());
        Optional<FactKey> now = FactKey.of(current.content());
        if (was.isEmpty()) {
            // "Dana uses Spotify." ended by "Dana no longer uses Spotify.": what quotes "Spotify"
            // among the old statement's turns (its excerpt, its session's summary).
            Optional<String> left = Departure.leftValue(old.content(), current.content());
            return left.isEmpty() ? 0 : mark(c, old, current, left.get(), FactKey.NONE, NOTHING);
        }
        if (now.isEmpty() || was.get().quoted().length() < 2) {
            return 0;
        }
        return mark(c, old, current, was.get().quoted(), now.get().quoted(), was.get().cueWords());
    }

    /** A regular expression no content matches: only the old statement's turns count. */
    private static final String NOTHING = "a^";

    private static int mark(
            Connection c, Memory old, Memory current, String was, String now, String cueWords)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement(MARK)) {
            st.setObject(1, current.id());
            st.setDouble(2, CONSISTENCY);
            MemoryEvents.bindScope(st, 3, old.scope());
            st.setObject(7, current.id());
            st.setObject(8, old.id());
            st.setString(9, was);
            st.setString(10, now);
            st.setArray(11, c.createArrayOf("text", old.sourceTurnIds().toArray()));
            st.setString(12, cueWords);
            st.setArray(13, c.createArrayOf("text", current.sourceTurnIds().toArray()));
            return st.executeUpdate();
        }
    }
}
