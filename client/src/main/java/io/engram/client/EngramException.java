package io.engram.client;

/**
 * A call Engram refused or could not answer: the HTTP status, the problem document's type, title
 * and detail, the field it names (the detail's "field: …" prefix, or null), and the request id to
 * quote. A subclass per status a caller reacts to differently.
 */
public class EngramException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final String detail;
    private final String field;
    private final String requestId;

    public EngramException(
            int status, String type, String title, String detail, String field, String requestId) {
        super(
                status
                        + (title == null ? "" : " " + title)
                        + (detail == null ? "" : ": " + detail)
                        + (requestId == null ? "" : " (request " + requestId + ")"));
        this.status = status;
        this.type = type;
        this.title = title;
        this.detail = detail;
        this.field = field;
        this.requestId = requestId;
    }

    /** A call that never got an answer: connection refused, timed out, interrupted. */
    public EngramException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
        this.type = null;
        this.title = null;
        this.detail = message;
        this.field = null;
        this.requestId = null;
    }

    /** The HTTP status; 0 when no answer came. */
    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return detail;
    }

    /** The request field at fault ({@code limit}, {@code weights.semantic}), or null. */
    public String field() {
        return field;
    }

    /** The id the server gave the request, to find it in its logs. */
    public String requestId() {
        return requestId;
    }

    /** 400: a field is missing or wrong; {@link #field()} names it. */
    public static final class BadRequest extends EngramException {
        private static final long serialVersionUID = 1L;

        BadRequest(String type, String title, String detail, String field, String requestId) {
            super(400, type, title, detail, field, requestId);
        }
    }

    /** 401: no API key, or one that is unknown, revoked or expired. */
    public static final class Unauthorized extends EngramException {
        private static final long serialVersionUID = 1L;

        Unauthorized(String type, String title, String detail, String field, String requestId) {
            super(401, type, title, detail, field, requestId);
        }
    }

    /** 403: the key lacks the scope, or the tenant is another's. */
    public static final class Forbidden extends EngramException {
        private static final long serialVersionUID = 1L;

        Forbidden(String type, String title, String detail, String field, String requestId) {
            super(403, type, title, detail, field, requestId);
        }
    }

    /** 404: no such memory, key, run or rule for this key's scope. */
    public static final class NotFound extends EngramException {
        private static final long serialVersionUID = 1L;

        NotFound(String type, String title, String detail, String field, String requestId) {
            super(404, type, title, detail, field, requestId);
        }
    }

    /** 409 (the memory cannot be edited in its state) or 412 (it changed since it was read). */
    public static final class Conflict extends EngramException {
        private static final long serialVersionUID = 1L;

        Conflict(
                int status,
                String type,
                String title,
                String detail,
                String field,
                String requestId) {
            super(status, type, title, detail, field, requestId);
        }
    }

    /** 429 or 503 after every retry: too many requests, or a store Engram needs is away. */
    public static final class Unavailable extends EngramException {
        private static final long serialVersionUID = 1L;

        Unavailable(
                int status,
                String type,
                String title,
                String detail,
                String field,
                String requestId) {
            super(status, type, title, detail, field, requestId);
        }
    }

    static EngramException of(
            int status, String type, String title, String detail, String requestId) {
        String field = fieldOf(detail);
        return switch (status) {
            case 400, 414, 431 -> new BadRequest(type, title, detail, field, requestId);
            case 401 -> new Unauthorized(type, title, detail, field, requestId);
            case 403 -> new Forbidden(type, title, detail, field, requestId);
            case 404 -> new NotFound(type, title, detail, field, requestId);
            case 409, 412 -> new Conflict(status, type, title, detail, field, requestId);
            case 429, 503 -> new Unavailable(status, type, title, detail, field, requestId);
            default -> new EngramException(status, type, title, detail, field, requestId);
        };
    }

    /** "limit: must be at most 50" names limit; a detail without such a prefix names none. */
    static String fieldOf(String detail) {
        if (detail == null) {
            return null;
        }
        int colon = detail.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        String head = detail.substring(0, colon);
        return head.matches(
                        "[a-z_][a-z0-9_]*(?:\\[\\d+\\])?(?:\\.[a-z_][a-z0-9_]*(?:\\[\\d+\\])?)*")
                ? head
                : null;
    }
}
