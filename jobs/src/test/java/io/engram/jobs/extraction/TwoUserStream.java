package io.engram.jobs.extraction;

import io.engram.events.ChatEvent;
import io.engram.events.Role;
import io.engram.events.SessionEndEvent;
import io.engram.events.TurnEvent;
import io.engram.services.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A stream for the recovery tests: two users whose Hawaii budget changes twice, talking at the same
 * time, so that a job stopped anywhere has open windows and per-user state; and the rows a run
 * leaves, to compare a recovered run with an uninterrupted one.
 */
final class TwoUserStream {

    private TwoUserStream() {}

    /** Alice and Bob, two sessions each, interleaved turn by turn. */
    static List<ChatEvent> events() {
        List<ChatEvent> out = new ArrayList<>();
        String[][] lines = {
            {"My budget for the Hawaii trip is $10,000.", "Great, I'll keep that in mind."},
            {"We want to stay in Maui for ten days.", "Maui is lovely in June."},
            {"My sister Kate is a nurse in Denver.", "Nice!"},
            {"I adopted a beagle named Max last spring.", "Max sounds adorable."},
            {"Actually, make the Hawaii budget $12,000.", "Updated to $12,000."},
            {"I'm allergic to shellfish.", "Noted, no shellfish."},
            {"We booked flights to Maui for June 5.", "Flights on June 5, got it."},
            {"Let's raise the Hawaii budget to $15,000.", "Budget is now $15,000."}
        };
        for (String user : List.of("alice", "bob")) {
            // Both users talk at the same time, a second apart.
            Instant t =
                    Instant.parse("2026-03-15T10:00:00Z").plusSeconds(user.equals("bob") ? 1 : 0);
            for (int session = 0; session < 2; session++) {
                String sid = user + "-s" + session;
                int turn = 0;
                for (int i = session * 4; i < session * 4 + 4; i++) {
                    for (int r = 0; r < 2; r++) {
                        t = t.plusSeconds(30);
                        out.add(
                                new TurnEvent(
                                        "e-" + sid + "-" + turn,
                                        "acme",
                                        "default",
                                        "dev",
                                        user,
                                        sid,
                                        sid + "-" + turn++,
                                        r == 0 ? Role.USER : Role.ASSISTANT,
                                        r == 0 ? Optional.of(user) : Optional.empty(),
                                        lines[i][r],
                                        t));
                    }
                }
                t = t.plusSeconds(30);
                out.add(new SessionEndEvent("end-" + sid, "acme", "default", "dev", user, sid, t));
            }
        }
        // Interleave the two users so both have open windows when the job stops.
        List<ChatEvent> alice = out.subList(0, out.size() / 2);
        List<ChatEvent> bob = out.subList(out.size() / 2, out.size());
        List<ChatEvent> mixed = new ArrayList<>();
        for (int i = 0; i < alice.size(); i++) {
            mixed.add(alice.get(i));
            mixed.add(bob.get(i));
        }
        return mixed;
    }

    /** Every memory row and event that the write plane decides (system times left out). */
    static String snapshot(PostgresServer pg, String url) {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password());
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select id, user_id, type, content, status, version, superseded_by,"
                                                + " valid_from, valid_to, array_to_string(source_turn_ids, ',')"
                                                + " from memories order by id")) {
            while (rs.next()) {
                for (int i = 1; i <= 10; i++) {
                    out.append(rs.getString(i)).append('|');
                }
                out.append('\n');
            }
            try (ResultSet events =
                    c.createStatement()
                            .executeQuery(
                                    "select memory_id, kind, version from memory_events order by 1, 2, 3")) {
                while (events.next()) {
                    out.append(events.getString(1))
                            .append(' ')
                            .append(events.getString(2))
                            .append(' ')
                            .append(events.getInt(3))
                            .append('\n');
                }
            }
        } catch (Exception e) {
            return e.toString();
        }
        return out.toString();
    }
}
