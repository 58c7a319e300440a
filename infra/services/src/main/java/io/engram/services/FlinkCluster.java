package io.engram.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A standalone Flink session cluster on this machine: one JobManager JVM and any number of
 * TaskManager JVMs, every endpoint on 127.0.0.1, checkpoints and savepoints in directories of its
 * own. Jobs reach it as they reach any Flink cluster: a jar uploaded and run through the REST API
 * ({@link FlinkRest}) or {@code flink run} ({@link #flinkRun}).
 *
 * <p>The processes get {@code env} as their environment: the JobManager runs the jobs' {@code main}
 * methods, which read the {@code ENGRAM_*} secrets from it, as a Kubernetes pod would.
 */
public final class FlinkCluster implements AutoCloseable {

    private static final String CLASSPATH = "flink-cluster";
    private static final String MAIN = "io.engram.infra.flink.FlinkProcessMain";

    /**
     * What Flink's distribution passes to every process ({@code env.java.opts.all} of its default
     * configuration): Flink reflects into these JDK packages, e.g. when a jar's main is run.
     */
    private static final List<String> JDK_OPENS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    /** How many TaskManagers, how many slots each, and the processes' environment. */
    public record Spec(int taskManagers, int slotsPerTaskManager, Map<String, String> env) {}

    private final Path dir;
    private final Spec spec;
    private final ChildProcess jobManager;
    private final Map<String, ChildProcess> taskManagers = new LinkedHashMap<>();
    private final FlinkRest rest;
    private int started;

    private FlinkCluster(Path dir, Spec spec, ChildProcess jobManager, FlinkRest rest) {
        this.dir = dir;
        this.spec = spec;
        this.jobManager = jobManager;
        this.rest = rest;
    }

    /** Starts the JobManager and the TaskManagers, and waits until all of them are registered. */
    public static FlinkCluster start(Path dir, Spec spec) {
        int restPort = FreePorts.find();
        int rpcPort = FreePorts.find();
        Path configDir = dir.resolve("conf");
        writeConfiguration(dir, configDir, restPort, rpcPort, spec.slotsPerTaskManager());
        ChildProcess jm = startProcess(dir, spec, "jobmanager", "jobmanager", "512m", List.of());
        FlinkRest rest = new FlinkRest("http://127.0.0.1:" + restPort);
        FlinkCluster cluster = new FlinkCluster(dir, spec, jm, rest);
        try {
            jm.awaitReady(Duration.ofSeconds(90), () -> rest.taskManagers() >= 0);
            for (int i = 0; i < spec.taskManagers(); i++) {
                cluster.addTaskManager();
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts one more TaskManager and waits until the JobManager has registered it. */
    public synchronized void addTaskManager() {
        String id = "taskmanager-" + started++;
        ChildProcess tm =
                startProcess(
                        dir,
                        spec,
                        "taskmanager",
                        id,
                        "640m",
                        List.of("-D", "taskmanager.resource-id=" + id));
        taskManagers.put(id, tm);
        tm.awaitReady(Duration.ofSeconds(90), () -> rest.taskManagerIds().contains(id));
    }

    /**
     * Kills the TaskManager with resource id {@code id} ({@code taskmanager-N}, as the REST API
     * names it) the hard way, {@code kill -9}: no shutdown hook runs.
     */
    public synchronized void killTaskManager(String id) {
        ChildProcess tm = taskManagers.get(id);
        if (tm == null) {
            throw new IllegalArgumentException(
                    "no TaskManager " + id + " in " + taskManagers.keySet());
        }
        ProcessHandle handle =
                ProcessHandle.of(tm.pid())
                        .orElseThrow(() -> new IllegalStateException("TaskManager not running"));
        handle.destroyForcibly();
        handle.onExit().orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** The pids of the JobManager and the live TaskManagers, to measure their CPU. */
    public synchronized List<Long> pids() {
        List<Long> out = new ArrayList<>(List.of(jobManager.pid()));
        taskManagers.values().stream()
                .filter(ChildProcess::isAlive)
                .map(ChildProcess::pid)
                .forEach(out::add);
        return out;
    }

    public FlinkRest rest() {
        return rest;
    }

    public Path checkpoints() {
        return dir.resolve("checkpoints");
    }

    public Path savepoints() {
        return dir.resolve("savepoints");
    }

    /**
     * {@code flink run [options] JAR ARGS}: Flink's command-line client in a JVM of its own, with
     * this cluster's configuration and {@code env}; returns its exit code, output in {@code log}.
     */
    public int flinkRun(List<String> runArgs, Map<String, String> env, Path log, Duration timeout)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        args.add("run");
        args.addAll(runArgs);
        List<String> command =
                ChildJvm.command(
                        CLASSPATH,
                        "org.apache.flink.client.cli.CliFrontend",
                        jvmOptions(
                                "-Xmx384m",
                                "-Dlog4j.configurationFile=" + logConfig(),
                                "-Dengram.log.file=" + log + ".client"),
                        args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        builder.environment().put("FLINK_CONF_DIR", dir.resolve("conf").toString());
        builder.redirectErrorStream(true);
        Files.createDirectories(log.getParent());
        builder.redirectOutput(log.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("flink run did not finish within " + timeout);
            }
            return process.exitValue();
        } finally {
            process.destroyForcibly();
        }
    }

    private static ChildProcess startProcess(
            Path dir, Spec spec, String kind, String name, String heap, List<String> flinkArgs) {
        Path logs = dir.resolve("logs");
        List<String> command =
                ChildJvm.command(
                        CLASSPATH,
                        MAIN,
                        jvmOptions(
                                "-Xms" + heap,
                                "-Xmx" + heap,
                                "-XX:+UseG1GC",
                                "-Djava.awt.headless=true",
                                "-Dlog4j.configurationFile=" + logConfig(),
                                "-Dengram.log.file=" + logs.resolve(name + ".log"),
                                "-Dlog.file=" + logs.resolve(name + ".log")),
                        Stream.concat(
                                        Stream.of(kind, dir.resolve("conf").toString()),
                                        flinkArgs.stream())
                                .toList());
        return ChildProcess.startJvm(
                "flink-" + name, command, spec.env(), logs.resolve(name + ".out"));
    }

    private static List<String> jvmOptions(String... options) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(JDK_OPENS);
        return all;
    }

    private static String logConfig() {
        return "classpath:log4j2-flink.properties";
    }

    /**
     * The cluster's {@code config.yaml}. TaskManager memory is given by its parts so that the heap
     * matches the JVM's {@code -Xmx}; heartbeats are short so a killed TaskManager is noticed in
     * seconds rather than the default 50.
     */
    private static void writeConfiguration(
            Path dir, Path configDir, int restPort, int rpcPort, int slots) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("jobmanager.rpc.address", "127.0.0.1");
        c.put("jobmanager.rpc.port", String.valueOf(rpcPort));
        c.put("jobmanager.bind-host", "127.0.0.1");
        c.put("jobmanager.memory.process.size", "1024m");
        c.put("taskmanager.host", "127.0.0.1");
        c.put("taskmanager.bind-host", "127.0.0.1");
        c.put("taskmanager.numberOfTaskSlots", String.valueOf(slots));
        // What Flink's start scripts compute and pass: the resources as explicit parts.
        c.put("taskmanager.cpu.cores", String.valueOf(slots));
        c.put("taskmanager.memory.framework.heap.size", "128m");
        c.put("taskmanager.memory.framework.off-heap.size", "128m");
        c.put("taskmanager.memory.task.off-heap.size", "0m");
        c.put("taskmanager.memory.task.heap.size", "512m");
        c.put("taskmanager.memory.managed.size", "128m");
        c.put("taskmanager.memory.network.min", "64m");
        c.put("taskmanager.memory.network.max", "64m");
        c.put("taskmanager.memory.jvm-metaspace.size", "256m");
        c.put("taskmanager.memory.jvm-overhead.min", "192m");
        c.put("taskmanager.memory.jvm-overhead.max", "192m");
        c.put("rest.address", "127.0.0.1");
        c.put("rest.bind-address", "127.0.0.1");
        c.put("rest.port", String.valueOf(restPort));
        c.put("state.backend.type", "hashmap");
        c.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        c.put(
                "execution.checkpointing.savepoint-dir",
                dir.resolve("savepoints").toUri().toString());
        c.put("heartbeat.interval", "1000");
        c.put("heartbeat.timeout", "6000");
        c.put("cluster.evenly-spread-out-slots", "true");
        c.put("classloader.parent-first-patterns.additional", "ai.onnxruntime;org.postgresql");
        c.put("io.tmp.dirs", dir.resolve("tmp").toString());
        c.put("web.tmpdir", dir.resolve("web").toString());
        c.put("web.upload.dir", dir.resolve("uploads").toString());
        StringBuilder yaml = new StringBuilder();
        c.forEach((k, v) -> yaml.append(k).append(": ").append(quote(v)).append('\n'));
        try {
            Files.createDirectories(configDir);
            for (String sub :
                    List.of("checkpoints", "savepoints", "tmp", "web", "uploads", "logs")) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.writeString(configDir.resolve("config.yaml"), yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quote(String value) {
        return value.matches("[A-Za-z0-9._-]+") ? value : "'" + value.replace("'", "''") + "'";
    }

    /** Stops the TaskManagers, then the JobManager; data and logs stay under the directory. */
    @Override
    public synchronized void close() {
        for (ChildProcess tm : taskManagers.values()) {
            tm.close();
        }
        jobManager.close();
    }
}
