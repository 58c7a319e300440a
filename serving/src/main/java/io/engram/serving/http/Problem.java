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

    public Problem(int status, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
    }

    public static Problem badRequest(String detail) {
        return new Problem(400, "Bad Request", detail);
    }

    public int status() {
        return status;
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
