package io.engram.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventCodecTest {

    private static final String VALID =
            "{\"schema_version\":1,\"event_id\":\"e1\",\"tenant_id\":\"t1\",\"project_id\":\"p\","
                    + "\"environment\":\"dev\",\"user_id\":\"u1\",\"session_id\":\"s1\","
                    + "\"turn_id\":\"t-1\",\"role\":\"user\",\"speaker\":\"Alice\","
                    + "\"content\":\"My budget for the Hawaii trip is $10,000\","
                    + "\"ts\":\"2026-03-15T10:00:00+01:00\"}";

    @Test
    void parsesAValidTurn() {
        ParseResult result = EventCodec.parse(VALID.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOf(ParseResult.Accepted.class);
        TurnEvent turn = (TurnEvent) ((ParseResult.Accepted) result).event();
        assertThat(turn.role()).isEqualTo(Role.USER);
        assertThat(turn.speaker()).contains("Alice");
        assertThat(turn.ts()).isEqualTo(Instant.parse("2026-03-15T09:00:00Z"));
        assertThat(turn.key()).isEqualTo("t1/u1/s1");
    }

    @Test
    void encodeThenParseGivesTheSameEvents() {
        TurnEvent turn =
                new TurnEvent(
                        "e1",
                        "t1",
                        "p",
                        "dev",
                        "u1",
                        "s1",
                        "t-1",
                        Role.ASSISTANT,
                        Optional.empty(),
                        "Noted.",
                        Instant.parse("2026-03-15T10:00:00Z"));
        SessionEndEvent end =
                new SessionEndEvent(
                        "e2", "t1", "p", "dev", "u1", "s1", Instant.parse("2026-03-15T11:00:00Z"));
        assertThat(EventCodec.parse(EventCodec.encode(turn)))
                .isEqualTo(new ParseResult.Accepted(turn));
        assertThat(EventCodec.parse(EventCodec.encode(end)))
                .isEqualTo(new ParseResult.Accepted(end));
    }

    @Test
    void aForgetWithoutProjectCoversEveryProjectAndATurnStillNeedsOne() {
        ForgetUserEvent everywhere =
                new ForgetUserEvent(
                        "e3",
                        "t1",
                        ForgetUserEvent.ALL_PROJECTS,
                        "dev",
                        "u1",
                        Instant.parse("2026-03-15T12:00:00Z"));
        ForgetUserEvent inOne = new ForgetUserEvent("e4", "t1", "p", "dev", "u1", everywhere.ts());
        assertThat(new String(EventCodec.encode(everywhere), StandardCharsets.UTF_8))
                .doesNotContain("project_id");
        assertThat(EventCodec.parse(EventCodec.encode(everywhere)))
                .isEqualTo(new ParseResult.Accepted(everywhere));
        assertThat(everywhere.allProjects()).isTrue();
        assertThat(EventCodec.parse(EventCodec.encode(inOne)))
                .isEqualTo(new ParseResult.Accepted(inOne));
        assertThat(inOne.allProjects()).isFalse();
        assertRejected(
                "{\"schema_version\":1,\"type\":\"forget_user\",\"event_id\":\"e5\","
                        + "\"tenant_id\":\"t1\",\"project_id\":\"*\",\"environment\":\"dev\","
                        + "\"user_id\":\"u1\",\"ts\":\"2026-03-15T12:00:00Z\"}",
                "project_id: '*' must be");
        assertRejected(VALID.replace("\"project_id\":\"p\",", ""), "project_id");
    }

    @Test
    void rejectsEachBadFieldWithItsName() {
        assertRejected("not json", "not valid JSON");
        assertRejected("[1,2]", "must be a JSON object");
        assertRejected(VALID.replace("\"schema_version\":1,", ""), "schema_version: required");
        assertRejected(
                VALID.replace("\"schema_version\":1", "\"schema_version\":2"),
                "schema_version: 2 is not supported");
        assertRejected(VALID.replace("\"role\":\"user\"", "\"role\":\"robot\""), "role: 'robot'");
        assertRejected(VALID.replace("\"user_id\":\"u1\",", ""), "user_id: required");
        assertRejected(VALID.replace("\"user_id\":\"u1\"", "\"user_id\":\"../etc\""), "user_id:");
        assertRejected(
                VALID.replace("\"user_id\":\"u1\"", "\"user_id\":42"), "user_id: must be a string");
        assertRejected(VALID.replace("2026-03-15T10:00:00+01:00", "yesterday"), "ts: 'yesterday'");
        assertRejected(VALID.replace("2026-03-15T10:00:00+01:00", "2026-03-15T10:00:00"), "ts:");
        assertRejected(
                VALID.replace("My budget for the Hawaii trip is $10,000", "   "),
                "content: must not be blank");
        assertRejected(
                VALID.replace(
                        "My budget for the Hawaii trip is $10,000",
                        "x".repeat(EventCodec.MAX_CONTENT_CHARS + 1)),
                "content: 32001 characters");
        assertRejected(
                VALID.replace("\"schema_version\":1,", "\"schema_version\":1,\"type\":\"poll\","),
                "type: 'poll' is not one of turn, session_end, forget_user");
        assertThat(EventCodec.parse(new byte[0]))
                .isEqualTo(new ParseResult.Rejected("empty record"));
    }

    @Test
    void deadLetterKeepsTheOriginalPayload() {
        byte[] bad = {(byte) 0xff, (byte) 0xfe, 'x'};
        DeadLetter letter =
                DeadLetter.of("not valid JSON", "engram.turns", 2, 17L, null, bad, Instant.EPOCH);
        assertThat(letter.payload()).startsWith("base64:");
        String json = new String(letter.toJson(), StandardCharsets.UTF_8);
        assertThat(json).contains("\"reason\":\"not valid JSON\"").contains("\"offset\":17");
    }

    private static void assertRejected(String json, String reasonPart) {
        ParseResult result = EventCodec.parse(json.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOf(ParseResult.Rejected.class);
        assertThat(((ParseResult.Rejected) result).reason()).contains(reasonPart);
    }
}
