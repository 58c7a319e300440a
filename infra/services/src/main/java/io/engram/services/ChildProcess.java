package io.engram.services;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service running as a child process that can never outlive this JVM.
 *
 * <p>The child holds the read end of a pipe on its standard input and stops when that pipe closes:
 * a JVM child (OpenSearch, Kafka) exits on end of input itself, a native server (PostgreSQL, Redis)
 * runs under a small shell watchdog that signals it. Stopping closes the pipe, so a clean stop, a
 * crash of this JVM and a {@code kill -9} of it all end the child the same way.
 *
 * <p>Output goes to a log file; a line starting with {@code ENGRAM_READY} on standard output is the
 * child's own signal that it serves.
 */
public final class ChildProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChildProcess.class);
    private static final String READY_PREFIX = "ENGRAM_READY ";

    private final String name;
    private final Process process;
    private final Path logFile;
    private final CompletableFuture<String> readyLine = new CompletableFuture<>();

    private ChildProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts a JVM-aware child that ends itself when standard input closes and announces readiness
     * with an {@code ENGRAM_READY} line on standard output.
     */
    public static ChildProcess startJvm(
            String name, List<String> command, Map<String, String> env, Path logFile) {
        return start(name, command, env, logFile);
    }

    /**
     * Starts a native server under the shell watchdog, which sends {@code stopSignal} to it when
     * standard input closes.
     */
    public static ChildProcess startNative(
            String name,
            String stopSignal,
            List<String> command,
            Map<String, String> env,
            Path logFile) {
        List<String> wrapped = new ArrayList<>();
        wrapped.add("/bin/sh");
        wrapped.add("-c");
        wrapped.add(Watchdog.SCRIPT);
        wrapped.add("engram-watchdog");
        wrapped.add(stopSignal);
        wrapped.addAll(command);
        return start(name, wrapped, env, logFile);
    }

    private static ChildProcess start(
            String name, List<String> command, Map<String, String> env, Path logFile) {
        try {
            Files.createDirectories(logFile.getParent());
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(env);
            builder.redirectErrorStream(true);
            Process process = builder.start();
            ChildProcess child = new ChildProcess(name, process, logFile);
            child.pumpOutput();
            LOG.debug("started {} (pid {}): {}", name, process.pid(), command);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    private void pumpOutput() {
        Thread pump =
                new Thread(
                        () -> {
                            try (BufferedReader reader =
                                            new BufferedReader(
                                                    new InputStreamReader(
                                                            process.getInputStream(),
                                                            StandardCharsets.UTF_8));
                                    Writer log =
                                            Files.newBufferedWriter(
                                                    logFile,
                                                    StandardCharsets.UTF_8,
                                                    StandardOpenOption.CREATE,
                                                    StandardOpenOption.APPEND)) {
                                String line;
                                while ((line = reader.readLine()) != null) {
                                    if (line.startsWith(READY_PREFIX)) {
                                        readyLine.complete(line.substring(READY_PREFIX.length()));
                                    }
                                    log.write(line);
                                    log.write('\n');
                                    log.flush();
                                }
                            } catch (IOException e) {
                                LOG.debug("output of {} ended: {}", name, e.toString());
                            } finally {
                                readyLine.completeExceptionally(
                                        new IllegalStateException(name + " exited before ready"));
                            }
                        },
                        "engram-" + name + "-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** Waits for the child's {@code ENGRAM_READY} line and returns what follows the prefix. */
    public String awaitReadyLine(Duration timeout) {
        try {
            return readyLine.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ServiceStartException(
                    name + " not ready after " + timeout + "; log tail:\n" + logTail());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceStartException(name + " start interrupted");
        } catch (Exception e) {
            throw new ServiceStartException(
                    name + " failed to start (exit " + exitCode() + "); log tail:\n" + logTail());
        }
    }

    /** Polls {@code probe} until it returns true, failing early if the child exits. */
    public void awaitReady(Duration timeout, Probe probe) {
        Instant deadline = Instant.now().plus(timeout);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new ServiceStartException(
                        name + " exited with " + process.exitValue() + "; log tail:\n" + logTail());
            }
            try {
                if (probe.ready()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            pause();
        }
        throw new ServiceStartException(
                name
                        + " not ready after "
                        + timeout
                        + (last == null ? "" : " (" + last + ")")
                        + "; log tail:\n"
                        + logTail());
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceStartException("interrupted while waiting for a service");
        }
    }

    /** A readiness check; an exception counts as "not yet". */
    @FunctionalInterface
    public interface Probe {
        boolean ready() throws Exception;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    private String exitCode() {
        return process.isAlive() ? "still running" : String.valueOf(process.exitValue());
    }

    /** The last lines of the log, for error messages. */
    public String logTail() {
        try {
            if (!Files.exists(logFile)) {
                return "(no log at " + logFile + ")";
            }
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /**
     * Stops the child: closes its lifeline, waits for a clean exit, then kills whatever of its
     * process tree is left.
     */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            OutputStream lifeline = process.getOutputStream();
            lifeline.close();
        } catch (IOException e) {
            LOG.debug("closing lifeline of {}: {}", name, e.toString());
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warn("{} did not stop within 30 s; killing it", name);
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        // A watchdog's helper may still be finishing; it has nothing left to wait for.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
    }
}
