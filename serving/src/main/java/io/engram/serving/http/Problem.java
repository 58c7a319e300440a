package io.engram.serving.http;

import io.vertx.core.json.JsonObject;

/**
 * An RFC 9457 problem: what went wrong, for the caller. Thrown by handlers and turned into a JSON
 * response by the router's failure handler.
 */
public final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String title;
    private final Long retryAfterSeconds;

    public Problem(int status, String title, String detail) {
        this(status, title, detail, null);
    }

    public Problem(int status, String title, String detail, Long retryAfterSeconds) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static Problem badRequest(String detail) {
        return new Problem(400, "Bad Request", detail);
    }

    public static Problem notFound(String detail) {
        return new Problem(404, "Not Found", detail);
    }

    public static Problem unauthorized(String detail) {
        return new Problem(401, "Unauthorized", detail);
    }

    public static Problem forbidden(String detail) {
        return new Problem(403, "Forbidden", detail);
    }

    public static Problem unavailable(String detail) {
        return new Problem(503, "Service Unavailable", detail);
    }

    public int status() {
        return status;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public JsonObject toJson(String requestId) {
        return new JsonObject()
                .put("type", "about:blank")
                .put("title", title)
                .put("status", status)
                .put("detail", getMessage())
                .put("request_id", requestId);
    }
}
