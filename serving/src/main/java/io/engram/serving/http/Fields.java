package io.engram.serving.http;

import io.engram.events.TimeBounds;
import io.engram.memory.Scope;
import io.engram.text.InputText;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Reads and checks request fields. Every failure is a 400 problem that names the field, so nothing
 * reaches a store unvalidated.
 */
public final class Fields {

    private Fields() {}

    public static JsonObject body(RoutingContext ctx, Set<String> allowed) {
        String text = ctx.body().asString();
        if (text == null || text.isBlank()) {
            throw Problem.badRequest("body: a JSON object is required");
        }
        JsonObject o;
        try {
            Object parsed = io.vertx.core.json.Json.decodeValue(text);
            if (!(parsed instanceof JsonObject obj)) {
                throw Problem.badRequest("body: must be a JSON object");
            }
            o = obj;
        } catch (DecodeException e) {
            throw Problem.badRequest("body: invalid JSON");
        }
        for (String field : o.fieldNames()) {
            if (!allowed.contains(field)) {
                throw Problem.badRequest(field + ": unknown field");
            }
        }
        return o;
    }

    public static String id(JsonObject o, String field) {
        Object v = o.getValue(field);
        if (v == null) {
            throw Problem.badRequest(field + ": required");
        }
        return checkId(field, v);
    }

    public static String optionalId(JsonObject o, String field) {
        Object v = o.getValue(field);
        return v == null ? null : checkId(field, v);
    }

    public static String checkId(String field, Object v) {
        if (!(v instanceof String s) || !Scope.isValidId(s)) {
            throw Problem.badRequest(
                    field + ": must be 1-128 characters of letters, digits and . _ : @ -");
        }
        return s;
    }

    public static UUID uuid(String field, String value) {
        try {
            if (value == null || value.length() != 36) {
                throw new IllegalArgumentException();
            }
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest(field + ": must be a UUID");
        }
    }

    public static String text(JsonObject o, String field, int maxChars) {
        Object v = o.getValue(field);
        if (v == null) {
            throw Problem.badRequest(field + ": required");
        }
        return checkText(field, v, maxChars);
    }

    public static String optionalText(JsonObject o, String field, int maxChars) {
        Object v = o.getValue(field);
        return v == null ? null : checkText(field, v, maxChars);
    }

    private static String checkText(String field, Object v, int maxChars) {
        if (!(v instanceof String s)) {
            throw Problem.badRequest(field + ": must be a string");
        }
        return checkText(field, s, maxChars);
    }

    /**
     * A client's text: storable (no NUL, no unpaired surrogate), not blank once invisible
     * characters are set aside, at most {@code maxChars} characters (code points).
     */
    public static String checkText(String field, String s, int maxChars) {
        String defect = InputText.defect(s);
        if (defect != null) {
            throw Problem.badRequest(field + ": " + defect);
        }
        if (InputText.isBlank(s)) {
            throw Problem.badRequest(field + ": must not be blank");
        }
        if (InputText.length(s) > maxChars) {
            throw Problem.badRequest(field + ": longer than " + maxChars + " characters");
        }
        return s;
    }

    public static int integer(JsonObject o, String field, int defaultValue, int min, int max) {
        Object v = o.getValue(field);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw Problem.badRequest(field + ": must be a whole number");
        }
        long value = n.longValue();
        if (value < min || value > max) {
            throw Problem.badRequest(field + ": must be from " + min + " to " + max);
        }
        return (int) value;
    }

    /** A whole number from {@code min} to {@code max}, or null when the field is absent or null. */
    public static Integer optionalInteger(JsonObject o, String field, int min, int max) {
        return o.getValue(field) == null ? null : integer(o, field, min, min, max);
    }

    public static double number(
            JsonObject o, String field, double defaultValue, double min, double max) {
        Object v = o.getValue(field);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof Number n) || Double.isNaN(n.doubleValue())) {
            throw Problem.badRequest(field + ": must be a number");
        }
        if (n.doubleValue() < min || n.doubleValue() > max) {
            throw Problem.badRequest(field + ": must be from " + min + " to " + max);
        }
        return n.doubleValue();
    }

    /**
     * {@link #number}, for a value stored as a 4-byte float (a {@code real} column): rounded to
     * that precision here, so that a value too small for one is stored as 0 rather than refused by
     * the database as an underflow.
     */
    public static double real(
            JsonObject o, String field, double defaultValue, double min, double max) {
        return (float) number(o, field, defaultValue, min, max);
    }

    public static boolean bool(JsonObject o, String field, boolean defaultValue) {
        Object v = o.getValue(field);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof Boolean b)) {
            throw Problem.badRequest(field + ": must be true or false");
        }
        return b;
    }

    public static List<String> strings(JsonObject o, String field, int maxItems, int maxChars) {
        Object v = o.getValue(field);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof JsonArray a)) {
            throw Problem.badRequest(field + ": must be an array of strings");
        }
        if (a.size() > maxItems) {
            throw Problem.badRequest(field + ": at most " + maxItems + " items");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            Object item = a.getValue(i);
            if (!(item instanceof String s)
                    || InputText.isBlank(s)
                    || InputText.length(s) > maxChars) {
                throw Problem.badRequest(
                        field
                                + "["
                                + i
                                + "]: must be a non-blank string of at most "
                                + maxChars
                                + " characters");
            }
            checkText(field + "[" + i + "]", s, maxChars);
            out.add(s);
        }
        return out;
    }

    public static <E extends Enum<E>> List<String> enumValues(
            JsonObject o, String field, Set<String> allowed) {
        List<String> values = strings(o, field, allowed.size(), 40);
        for (String v : values) {
            if (!allowed.contains(v)) {
                throw Problem.badRequest(
                        field + ": '" + v + "' is not one of " + String.join(", ", allowed));
            }
        }
        return values;
    }

    /**
     * A time Engram stores (a turn's time, a memory's valid_from): from 1970 to a day ahead of now
     * ({@link TimeBounds}).
     */
    public static Instant optionalTime(JsonObject o, String field) {
        Instant t = optionalAnyTime(o, field);
        String defect = t == null ? null : TimeBounds.defect(t, Instant.now());
        if (defect != null) {
            throw Problem.badRequest(field + ": " + defect);
        }
        return t;
    }

    /** A time a filter compares with: years 1 to 9999. */
    public static Instant optionalFilterTime(JsonObject o, String field) {
        Instant t = optionalAnyTime(o, field);
        if (t != null && (t.isBefore(FIRST_YEAR) || !t.isBefore(AFTER_LAST_YEAR))) {
            throw Problem.badRequest(field + ": must be within the years 1 to 9999");
        }
        return t;
    }

    private static final Instant FIRST_YEAR = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant AFTER_LAST_YEAR = Instant.parse("+10000-01-01T00:00:00Z");

    private static Instant optionalAnyTime(JsonObject o, String field) {
        Object v = o.getValue(field);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw Problem.badRequest(field + ": must be an RFC 3339 timestamp");
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw Problem.badRequest(field + ": must be an RFC 3339 timestamp with offset");
        }
    }

    public static JsonObject object(JsonObject o, String field, int maxKeys) {
        Object v = o.getValue(field);
        if (v == null) {
            return null;
        }
        if (!(v instanceof JsonObject obj)) {
            throw Problem.badRequest(field + ": must be an object");
        }
        if (obj.size() > maxKeys) {
            throw Problem.badRequest(field + ": at most " + maxKeys + " keys");
        }
        return obj;
    }

    /**
     * A JSON object a client keeps with a memory (or filters by): at most {@code maxKeys} keys at
     * the top, nested at most {@link #MAX_JSON_DEPTH} deep, every key and string storable in
     * PostgreSQL's jsonb (no NUL).
     */
    public static JsonObject json(JsonObject o, String field, int maxKeys) {
        JsonObject obj = object(o, field, maxKeys);
        if (obj != null) {
            checkJson(field, obj, 1);
        }
        return obj;
    }

    static final int MAX_JSON_DEPTH = 5;

    private static void checkJson(String path, Object value, int depth) {
        if (value instanceof JsonObject obj) {
            if (depth > MAX_JSON_DEPTH) {
                throw Problem.badRequest(path + ": nested deeper than " + MAX_JSON_DEPTH);
            }
            for (String key : obj.fieldNames()) {
                checkText(path + " key", key, 100);
                checkJson(path + "." + key, obj.getValue(key), depth + 1);
            }
        } else if (value instanceof JsonArray array) {
            if (depth > MAX_JSON_DEPTH) {
                throw Problem.badRequest(path + ": nested deeper than " + MAX_JSON_DEPTH);
            }
            for (int i = 0; i < array.size(); i++) {
                checkJson(path + "[" + i + "]", array.getValue(i), depth + 1);
            }
        } else if (value instanceof String s) {
            String defect = InputText.defect(s);
            if (defect != null) {
                throw Problem.badRequest(path + ": " + defect);
            }
        }
    }

    /**
     * The version an {@code If-Match} header names (an ETag of this API: the version in quotes,
     * weak or not); null without the header or with {@code *}.
     */
    public static Integer ifMatch(String header) {
        if (header == null || header.strip().equals("*")) {
            return null;
        }
        String v = header.strip();
        if (v.startsWith("W/")) {
            v = v.substring(2);
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        try {
            int version = Integer.parseInt(v);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw Problem.badRequest(
                "If-Match: must be an ETag this API returned (the memory's version in quotes)");
    }
}
