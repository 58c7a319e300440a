package io.engram.config;

import io.engram.auth.ApiKeys;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Parsers for configuration values; each throws an exception that says what was expected. */
final class Parsers {

    private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[mMgG]");
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,100}");

    private Parsers() {}

    /**
     * An API key as {@code ApiKeys.generate()} makes them, or empty; the message never repeats the
     * key, a secret.
     */
    static String apiKey(String text) {
        if (!text.isEmpty() && !ApiKeys.isWellFormed(text)) {
            throw new IllegalArgumentException(
                    "expected 'ek_' and 40 lower-case hex digits (e.g. ek_$(openssl rand -hex 20)),"
                            + " got "
                            + text.length()
                            + " characters (not shown: a secret)");
        }
        return text;
    }

    static Function<String, String> oneOf(String... values) {
        return text -> {
            for (String v : values) {
                if (v.equals(text.trim())) {
                    return v;
                }
            }
            throw new IllegalArgumentException(
                    "expected one of " + String.join(", ", values) + ", got '" + text + "'");
        };
    }

    static Function<String, Integer> intRange(int min, int max) {
        return text -> {
            int value;
            try {
                value = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a whole number, got '" + text + "'");
            }
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "expected a number from " + min + " to " + max + ", got " + value);
            }
            return value;
        };
    }

    static Function<String, Double> fraction() {
        return text -> {
            double value;
            try {
                value = Double.parseDouble(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "expected a number from 0 to 1, got '" + text + "'");
            }
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException("expected a number from 0 to 1, got " + value);
            }
            return value;
        };
    }

    static Function<String, Integer> port() {
        return intRange(0, 65535);
    }

    static Boolean bool(String text) {
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default ->
                    throw new IllegalArgumentException(
                            "expected true or false, got '" + text + "'");
        };
    }

    static String text(String text) {
        return text.trim();
    }

    static String name(String text) {
        String value = text.trim();
        if (!NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    "expected lower-case letters, digits, '.', '_' or '-', got '" + text + "'");
        }
        return value;
    }

    static String dailyTime(String text) {
        String value = text.trim();
        if (value.equals("off")) {
            return value;
        }
        try {
            return java.time.LocalTime.parse(value).toString();
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "expected a UTC time of day like 03:00, or off, got '" + text + "'");
        }
    }

    static String heap(String text) {
        String value = text.trim();
        if (!HEAP.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    "expected a heap size like 512m or 2g, got '" + text + "'");
        }
        return value;
    }

    /** An optional URL with one of the given schemes; "" means not set. */
    static Function<String, String> optionalUrl(String... schemes) {
        return text -> {
            String value = text.trim();
            if (value.isEmpty()) {
                return value;
            }
            try {
                URI uri = new URI(value.startsWith("jdbc:") ? value.substring(5) : value);
                String scheme =
                        value.startsWith("jdbc:") ? "jdbc:" + uri.getScheme() : uri.getScheme();
                for (String allowed : schemes) {
                    if (allowed.equals(scheme) && uri.getHost() != null) {
                        return value;
                    }
                }
            } catch (URISyntaxException e) {
                // fall through to the error below
            }
            throw new IllegalArgumentException(
                    "expected a URL starting with "
                            + String.join(" or ", schemes)
                            + "://host, got '"
                            + text
                            + "'");
        };
    }

    /** Comma-separated host:port pairs; "" means not set. */
    static String hostPorts(String text) {
        String value = text.trim();
        if (value.isEmpty()) {
            return value;
        }
        for (String part : value.split(",")) {
            String p = part.trim();
            int colon = p.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        "expected host:port[,host:port...], got '" + text + "'");
            }
            port().apply(p.substring(colon + 1));
        }
        return value;
    }
}
