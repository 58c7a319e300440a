package io.engram.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.memory.Scope;
import io.engram.text.InputText;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The wire format of {@code engram.turns}: JSON objects with a {@code schema_version}. Parsing
 * never throws: a bad record yields {@link ParseResult.Rejected} with a reason naming the field.
 */
public final class EventCodec {

    public static final int MAX_CONTENT_CHARS = 32_000;
    public static final int MAX_RECORD_BYTES = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private EventCodec() {}

    public static byte[] encode(ChatEvent event) {
        ObjectNode o = JSON.createObjectNode();
        o.put("schema_version", ChatEvent.SCHEMA_VERSION);
        o.put("event_id", event.eventId());
        o.put("tenant_id", event.tenantId());
        if (!(event instanceof ForgetUserEvent f && f.allProjects())) {
            o.put("project_id", event.projectId());
        }
        o.put("environment", event.environment());
        o.put("user_id", event.userId());
        if (!(event instanceof ForgetUserEvent)) {
            o.put("session_id", event.sessionId());
        }
        if (event instanceof TurnEvent t) {
            o.put("type", "turn");
            o.put("turn_id", t.turnId());
            o.put("role", t.role().wireName());
            t.speaker().ifPresent(s -> o.put("speaker", s));
            o.put("content", t.content());
        } else if (event instanceof ForgetUserEvent) {
            o.put("type", "forget_user");
        } else {
            o.put("type", "session_end");
        }
        o.put("ts", event.ts().toString());
        try {
            return JSON.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode event", e);
        }
    }

    public static ParseResult parse(byte[] value) {
        if (value == null || value.length == 0) {
            return new ParseResult.Rejected("empty record");
        }
        if (value.length > MAX_RECORD_BYTES) {
            return new ParseResult.Rejected(
                    "record is " + value.length + " bytes, more than " + MAX_RECORD_BYTES);
        }
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (Exception e) {
            return new ParseResult.Rejected("not valid JSON: " + firstLine(e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            return new ParseResult.Rejected("record must be a JSON object");
        }
        try {
            return new ParseResult.Accepted(toEvent(node));
        } catch (InvalidEvent e) {
            return new ParseResult.Rejected(e.getMessage());
        }
    }

    private static ChatEvent toEvent(JsonNode node) {
        JsonNode version = node.get("schema_version");
        if (version == null || !version.isInt()) {
            throw new InvalidEvent("schema_version: required integer");
        }
        if (version.asInt() != ChatEvent.SCHEMA_VERSION) {
            throw new InvalidEvent(
                    "schema_version: "
                            + version.asInt()
                            + " is not supported (expected "
                            + ChatEvent.SCHEMA_VERSION
                            + ")");
        }
        String type = optionalText(node, "type").orElse("turn");
        String eventId = id(node, "event_id");
        String tenant = id(node, "tenant_id");
        boolean allProjects = type.equals("forget_user") && !node.has("project_id");
        String project = allProjects ? ForgetUserEvent.ALL_PROJECTS : id(node, "project_id");
        String environment = id(node, "environment");
        String user = id(node, "user_id");
        Instant ts = timestamp(node, "ts");
        if (type.equals("forget_user")) {
            return new ForgetUserEvent(eventId, tenant, project, environment, user, ts);
        }
        String session = id(node, "session_id");
        return switch (type) {
            case "turn" -> {
                String turnId = id(node, "turn_id");
                String roleText = text(node, "role");
                Role role = Role.fromWire(roleText);
                if (role == null) {
                    throw new InvalidEvent(
                            "role: '" + roleText + "' is not one of user, assistant, system, tool");
                }
                Optional<String> speaker = optionalText(node, "speaker");
                if (speaker.isPresent() && InputText.length(speaker.get()) > 200) {
                    throw new InvalidEvent("speaker: longer than 200 characters");
                }
                String content = text(node, "content");
                if (InputText.isBlank(content)) {
                    throw new InvalidEvent("content: must not be blank");
                }
                if (InputText.length(content) > MAX_CONTENT_CHARS) {
                    throw new InvalidEvent(
                            "content: "
                                    + InputText.length(content)
                                    + " characters, more than "
                                    + MAX_CONTENT_CHARS);
                }
                yield new TurnEvent(
                        eventId,
                        tenant,
                        project,
                        environment,
                        user,
                        session,
                        turnId,
                        role,
                        speaker.filter(s -> !s.isBlank()),
                        content,
                        ts);
            }
            case "session_end" ->
                    new SessionEndEvent(eventId, tenant, project, environment, user, session, ts);
            default ->
                    throw new InvalidEvent(
                            "type: '" + type + "' is not one of turn, session_end, forget_user");
        };
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new InvalidEvent(field + ": required");
        }
        return checked(field, value);
    }

    private static Optional<String> optionalText(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(checked(field, value));
    }

    private static String checked(String field, JsonNode value) {
        if (!value.isTextual()) {
            throw new InvalidEvent(field + ": must be a string");
        }
        String text = value.asText();
        String defect = InputText.defect(text);
        if (defect != null) {
            throw new InvalidEvent(field + ": " + defect);
        }
        return text;
    }

    private static String id(JsonNode node, String field) {
        String value = text(node, field);
        if (!Scope.isValidId(value)) {
            throw new InvalidEvent(
                    field
                            + ": '"
                            + abbreviate(value)
                            + "' must be 1-128 characters of letters, digits and . _ : @ -");
        }
        return value;
    }

    private static Instant timestamp(JsonNode node, String field) {
        String value = text(node, field);
        Instant t;
        try {
            t = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidEvent(
                    field
                            + ": '"
                            + abbreviate(value)
                            + "' is not an RFC 3339 timestamp with offset");
        }
        String defect = TimeBounds.defect(t, Instant.now());
        if (defect != null) {
            throw new InvalidEvent(field + ": '" + abbreviate(value) + "' " + defect);
        }
        return t;
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** The raw record as text for a dead letter: UTF-8 if it decodes, else Base64. */
    static String describePayload(byte[] value) {
        if (value == null) {
            return "";
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(value))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return "base64:" + java.util.Base64.getEncoder().encodeToString(value);
        }
    }

    private static final class InvalidEvent extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidEvent(String message) {
            super(message, null, false, false);
        }
    }
}
