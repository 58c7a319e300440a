package io.engram.serving.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The API's routes, kept to answer a request no route takes: 405 with {@code Allow} when its path
 * is routed for other methods, else 404.
 */
public final class Routes {

    private record Route(HttpMethod method, Pattern path) {}

    private final Router router;
    private final List<Route> routes = new ArrayList<>();

    public Routes(Router router) {
        this.router = router;
    }

    public void add(HttpMethod method, String path, Handler<RoutingContext> handler) {
        router.route(method, path).handler(handler);
        routes.add(new Route(method, Pattern.compile(path.replaceAll(":[a-z_]+", "[^/]+"))));
    }

    public void unmatched(RoutingContext ctx) {
        String path = ctx.request().path();
        TreeSet<String> allow = new TreeSet<>();
        for (Route r : routes) {
            if (r.path().matcher(path).matches()) {
                allow.add(r.method().name());
            }
        }
        if (allow.isEmpty()) {
            ctx.fail(Problem.notFound("no route " + ctx.request().method() + " " + path));
        } else {
            ctx.fail(new Problem.MethodNotAllowed(ctx.request().method().name(), path, allow));
        }
    }
}
