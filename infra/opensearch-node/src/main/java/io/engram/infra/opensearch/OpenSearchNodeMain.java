package io.engram.infra.opensearch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.http.HttpServerTransport;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.knn.plugin.KNNPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * A single-node OpenSearch with the k-NN plugin and the common analysers (stemming, stop words) and
 * by-query operations, run in a JVM of its own by the services launcher.
 *
 * <p>Arguments: {@code <home dir> <first http port> <last http port> <cluster name>}. Prints one
 * line {@code ENGRAM_READY http=<port>} on stdout once the node serves HTTP, and exits when its
 * standard input closes, so the node never outlives the process that started it.
 */
public final class OpenSearchNodeMain {

    private OpenSearchNodeMain() {}

    /** Exposes the protected constructor that accepts classpath plugins. */
    private static final class EmbeddedNode extends Node {
        EmbeddedNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
            super(environment, plugins, true);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println(
                    "usage: OpenSearchNodeMain <home> <first-port> <last-port> <cluster>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("logs"));
        Files.createDirectories(home.resolve("config"));

        Settings settings =
                Settings.builder()
                        .put("path.home", home.toString())
                        .put("path.data", home.resolve("data").toString())
                        .put("path.logs", home.resolve("logs").toString())
                        .put("cluster.name", args[3])
                        .put("node.name", "node-0")
                        .put("discovery.type", "single-node")
                        .put("network.host", "127.0.0.1")
                        .put("http.port", args[1] + "-" + args[2])
                        .put("transport.port", "0")
                        .put("cluster.routing.allocation.disk.threshold_enabled", false)
                        .put("action.auto_create_index", false)
                        .build();
        Environment environment =
                InternalSettingsPreparer.prepareEnvironment(
                        settings, Map.of(), home.resolve("config"), () -> "node-0");
        Node node =
                new EmbeddedNode(
                        environment,
                        List.of(
                                Netty4Plugin.class,
                                CommonAnalysisPlugin.class,
                                ReindexPlugin.class,
                                KNNPlugin.class));
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        node.close();
                                    } catch (IOException e) {
                                        e.printStackTrace();
                                    }
                                },
                                "opensearch-node-shutdown"));
        node.start();
        int port =
                node.injector()
                        .getInstance(HttpServerTransport.class)
                        .boundAddress()
                        .publishAddress()
                        .getPort();
        System.out.println("ENGRAM_READY http=" + port);
        System.out.flush();
        exitWhenStdinCloses();
    }

    private static void exitWhenStdinCloses() throws IOException {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        while (in.read(buffer) >= 0) {
            // Input is only a lifeline; its content is ignored.
        }
        System.exit(0);
    }
}
