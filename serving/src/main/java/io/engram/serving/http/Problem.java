package io.engram.serving.http;

import io.vertx.core.http.HttpClosedException;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * An RFC 9457 problem: what went wrong, for the caller. Thrown by handlers and turned into a JSON
 * response by the router's failure handler.
 */
public class Problem extends RuntimeException {
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

    /** 405: the path is routed, for other methods than the request's ({@code Allow}). */
    public static final class MethodNotAllowed extends Problem {
        private static final long serialVersionUID = 1L;
        private final String allow;

        public MethodNotAllowed(String method, String path, java.util.Collection<String> allowed) {
            super(
                    405,
                    "Method Not Allowed",
                    method + " " + path + ": allowed are " + String.join(", ", allowed));
            this.allow = String.join(", ", allowed);
        }

        public String allow() {
            return allow;
        }
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

    /** 503 with {@code Retry-After: 1}: the same request may succeed soon. */
    public static Problem unavailable(String detail) {
        return new Problem(503, "Service Unavailable", detail, 1L);
    }

    /**
     * The 503 for a failure that means a store could not be reached or did not answer in time:
     * connection refused or lost, a timeout, PostgreSQL refusing connections, out of connections,
     * shutting down or cancelling a statement. Null for anything else, which stays a 500.
     */
    public static Problem ofUnreachableStore(Throwable failure, String requestId) {
        for (Throwable t = failure, seen = null;
                t != null && t != seen;
                seen = t, t = t.getCause()) {
            if (t instanceof ConnectException
                    || t instanceof ClosedChannelException
                    || t instanceof TimeoutException
                    || t instanceof ClosedConnectionException
                    || t instanceof HttpClosedException
                    || (t instanceof PgException pg
                            && pg.getSqlState() != null
                            && pg.getSqlState().length() >= 2
                            && UNAVAILABLE_SQL_STATE_CLASSES.contains(
                                    pg.getSqlState().substring(0, 2)))) {
                return unavailable(
                        "a store is unreachable or did not answer in time; retry later (request id "
                                + requestId
                                + ")");
            }
        }
        return null;
    }

    /**
     * PostgreSQL error classes of an unavailable server rather than a wrong statement: connection
     * exception, insufficient resources, object not in prerequisite state (e.g. a database not
     * accepting connections), operator intervention (shutdown, cannot connect now, cancelled).
     */
    private static final Set<String> UNAVAILABLE_SQL_STATE_CLASSES = Set.of("08", "53", "55", "57");

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
