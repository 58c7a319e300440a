package io.engram.infra.flink;

import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint;
import org.apache.flink.runtime.taskexecutor.TaskManagerRunner;

/**
 * One process of a standalone Flink session cluster, started by the services launcher:
 *
 * <pre>
 * FlinkProcessMain jobmanager  CONFIG_DIR [-D key=value ...]  (StandaloneSessionClusterEntrypoint)
 * FlinkProcessMain taskmanager CONFIG_DIR [-D key=value ...]  (TaskManagerRunner)
 * </pre>
 *
 * These are the entry points Flink's own {@code jobmanager.sh} and {@code taskmanager.sh} start.
 * The process also ends, through Flink's shutdown hooks, when its standard input closes, so a
 * launcher that dies takes its cluster with it.
 */
public final class FlinkProcessMain {

    private FlinkProcessMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println(
                    "usage: FlinkProcessMain jobmanager|taskmanager CONFIG_DIR [-D key=value ...]");
            System.exit(2);
        }
        watchLifeline(System.in);
        String[] flinkArgs = new String[args.length];
        flinkArgs[0] = "--configDir";
        flinkArgs[1] = args[1];
        System.arraycopy(args, 2, flinkArgs, 2, args.length - 2);
        switch (args[0]) {
            case "jobmanager" -> StandaloneSessionClusterEntrypoint.main(flinkArgs);
            case "taskmanager" -> TaskManagerRunner.main(flinkArgs);
            default -> {
                System.err.println("unknown process kind " + args[0]);
                System.exit(2);
            }
        }
    }

    private static void watchLifeline(InputStream in) {
        Thread lifeline =
                new Thread(
                        () -> {
                            try {
                                while (in.read() >= 0) {
                                    // the launcher writes nothing; end of input is the signal
                                }
                            } catch (IOException e) {
                                // a broken pipe means the launcher is gone, too
                            }
                            System.exit(0);
                        },
                        "engram-lifeline");
        lifeline.setDaemon(true);
        lifeline.start();
    }
}
