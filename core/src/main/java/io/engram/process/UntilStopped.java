package io.engram.process;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * Keeps a started service running until the JVM is asked to stop (Ctrl-C, SIGTERM), then closes it
 * in the shutdown hook, saying so on standard output, before the JVM exits.
 */
public final class UntilStopped {

    private UntilStopped() {}

    /** Blocks until the JVM shuts down; {@code name} prefixes the two lines printed on the way. */
    public static void await(String name, AutoCloseable service) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        PrintStream out = System.out;
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    out.println(name + ": stopping…");
                                    try {
                                        service.close();
                                    } catch (Exception e) {
                                        out.println(name + ": stopping failed: " + e);
                                    }
                                    out.println(name + ": stopped");
                                    out.flush();
                                    stopped.countDown();
                                },
                                name + "-shutdown"));
        stopped.await();
    }
}
